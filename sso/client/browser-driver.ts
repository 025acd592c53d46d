import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { QueryPairs } from '../model/front-channel.ts';
import { queryString, type FrontObservation, type LoginDriver } from './driver.ts';
import type { PacedHttp } from './http.ts';
import { BrowserUnavailable } from './browser-unavailable.ts';

export { BrowserUnavailable };

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface LoginSelectors {
  username: string;
  password: string;
  submit: string;
}


/** Debian's chromium driven by playwright-core; never a downloaded browser. */
export async function launchChromium(executablePath = CHROMIUM_PATH): Promise<Browser> {
  if (!existsSync(executablePath)) {
    throw new BrowserUnavailable(`Chromium not found at ${executablePath}: install Debian's package with \`apt-get install -y chromium\``);
  }
  // policyfuzz handles SIGTERM/SIGINT itself (stop cleanly, then close the browser).
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, handleSIGTERM: false, handleSIGINT: false, handleSIGHUP: false });
}

/**
 * Route every request of a browser context: the service's page loads are fetched without
 * following redirects, so its first answer (status, Location, headers) is seen exactly; a
 * redirect that leaves the service is recorded and answered locally, and nothing outside the
 * service is ever contacted. (Playwright does not route the targets of redirects itself.)
 */
export async function captureFrontChannel(context: BrowserContext, webUrl: string, onAnswer: (page: Page, seen: FrontObservation) => void): Promise<void> {
  const webOrigin = new URL(webUrl).origin;
  await context.route('**/*', async (route) => {
    const request = route.request();
    if (new URL(request.url()).origin !== webOrigin) {
      return route.fulfill({ status: 200, contentType: 'text/plain', body: 'policyfuzz: outside the service, not contacted' });
    }
    if (!request.isNavigationRequest()) return route.continue();
    const response = await route.fetch({ maxRedirects: 0, timeout: 10_000 });
    const headers = response.headers();
    const status = response.status();
    const location = headers['location'];
    const redirect = status >= 300 && status < 400 && location !== undefined;
    const absolute = redirect ? (/^[a-z][a-z0-9+.-]*:/i.test(location!) ? location! : new URL(location!, request.url()).href) : '';
    onAnswer(request.frame().page(), redirect ? { kind: 'redirect', status, location: absolute, headers } : { kind: 'page', status, headers });
    if (redirect && new URL(absolute, request.url()).origin !== webOrigin) {
      const setCookie = headers['set-cookie'];
      return route.fulfill({ status: 200, headers: { 'content-type': 'text/plain', ...(setCookie ? { 'set-cookie': setCookie } : {}) }, body: `policyfuzz: redirect to ${absolute} captured` });
    }
    return route.fulfill({ response });
  });
}

/** Most browser contexts open at once (in use or idle); beyond it the least recently used one is closed. */
export const MAX_OPEN_CONTEXTS = 6;

/**
 * Logs in through a real headless browser, typing into the service's own login form (for a
 * real deployment). Redirects that leave the service are captured, never followed. One chromium
 * for the whole run; one context per named browser, closed when its case ends (and never more
 * than MAX_OPEN_CONTEXTS at once), so memory stays flat however many cases run. A context whose
 * case ended is kept idle with its cookies and storage cleared and its tab on about:blank, and
 * serves the next new browser: creating a context costs more than a login.
 */
export class BrowserDriver implements LoginDriver {
  readonly name = 'browser';
  /** One context (cookie jar) and one tab per named browser. Tabs are reused, not closed per
   * call: closing a tab while the service's redirect is still being routed can hang. */
  private readonly pages = new Map<string, Page>();
  private readonly answers = new WeakMap<Page, FrontObservation[]>();

  private constructor(
    private readonly browser: Browser,
    private readonly webUrl: string,
    private readonly selectors: LoginSelectors,
    private readonly http: PacedHttp | null,
  ) {}

  static async launch(webUrl: string, selectors: LoginSelectors, http: PacedHttp | null = null, executablePath?: string): Promise<BrowserDriver> {
    return new BrowserDriver(await launchChromium(executablePath), webUrl, selectors, http);
  }

  async login(browser: string, query: QueryPairs, credentials?: { username: string; password: string }): Promise<FrontObservation> {
    const page = await this.page(browser);
    await this.http?.acquire();
    const seen = await this.answerTo(page, () => page.goto(`${this.webUrl}/login?${queryString(query)}`));
    if (!credentials || seen.kind === 'redirect' || seen.status !== 200) return seen;
    await page.fill(this.selectors.username, credentials.username);
    await page.fill(this.selectors.password, credentials.password);
    await this.http?.acquire();
    return this.answerTo(page, () => Promise.all([page.waitForNavigation({ waitUntil: 'commit' }), page.click(this.selectors.submit)]));
  }

  async logout(browser: string, query: QueryPairs, options: { referer?: string } = {}): Promise<FrontObservation> {
    const page = await this.page(browser);
    await this.http?.acquire();
    return this.answerTo(page, () => page.goto(`${this.webUrl}/logout?${queryString(query)}`, options.referer ? { referer: options.referer } : {}));
  }

  private idle: Page[] = [];

  async endCase(): Promise<void> {
    const ended = [...this.pages.values()];
    this.pages.clear();
    for (const page of ended) {
      try {
        await page.goto('about:blank');
        await page.context().clearCookies();
        await page.evaluate(() => {
          try {
            localStorage.clear();
            sessionStorage.clear();
          } catch {
            // about:blank has no storage of the service
          }
        });
        this.answers.set(page, []);
        if (this.idle.length < MAX_OPEN_CONTEXTS) this.idle.push(page);
        else await page.context().close();
      } catch {
        await page.context().close().catch(() => {});
      }
    }
  }

  async close(): Promise<void> {
    await this.endCase();
    await Promise.all(this.idle.map((p) => p.context().close().catch(() => {})));
    this.idle = [];
    await this.browser.close();
  }

  /** Contexts opened so far (for the run's summary). */
  contextsOpened = 0;

  private async page(name: string): Promise<Page> {
    const open = this.pages.get(name);
    if (open) {
      // Most recently used last, so the oldest is first in line to be closed.
      this.pages.delete(name);
      this.pages.set(name, open);
      return open;
    }
    const reused = this.idle.pop();
    if (reused) {
      this.pages.set(name, reused);
      return reused;
    }
    if (this.pages.size >= MAX_OPEN_CONTEXTS) {
      const [oldest, page] = this.pages.entries().next().value as [string, Page];
      this.pages.delete(oldest);
      await page.context().close().catch(() => {});
    }
    this.contextsOpened++;
    const ctx = await this.browser.newContext();
    await captureFrontChannel(ctx, this.webUrl, (page, seen) => this.answers.get(page)?.push(seen));
    const page = await ctx.newPage();
    // A selector that matches nothing must fail the case, not hang the run.
    page.setDefaultTimeout(10_000);
    this.answers.set(page, []);
    this.pages.set(name, page);
    return page;
  }

  /** The service's first answer to the navigation that `act` starts. */
  private async answerTo(page: Page, act: () => Promise<unknown>): Promise<FrontObservation> {
    const list = this.answers.get(page)!;
    const before = list.length;
    await act();
    const seen = list[before];
    if (!seen) throw new Error('the browser navigation produced no answer from the service');
    return seen;
  }
}
