/** Chromium could not be started (kept apart from the driver so checking for it does not load playwright). */
export class BrowserUnavailable extends Error {
  override name = 'BrowserUnavailable';
}
