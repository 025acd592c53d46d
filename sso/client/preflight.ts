/**
 * The login that runs before any property: if the driver cannot log a configured user in, every
 * property would fail for the same reason. The run ends with exit 2 and says what the page showed.
 */
export class PreflightFailed extends Error {
  override name = 'PreflightFailed';
}
