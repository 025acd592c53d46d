import type { QueryPairs } from '../model/front-channel.ts';
import { queryString, type FrontObservation, type LoginDriver } from './driver.ts';
import type { HttpReply, PacedHttp } from './http.ts';
import { loginFormOf, visibleText, type HtmlForm } from './html-form.ts';

/**
 * Drives the front channel with plain HTTP, as a browser would without running scripts: GET
 * `/login?query`; if a login form comes back, read it (action, method, hidden inputs such as a
 * CSRF token), fill the configured username and password fields and submit it with the
 * browser's `Origin` and `Referer`. One cookie jar per browser.
 */
export class FormPostDriver implements LoginDriver {
  readonly name = 'form-post';
  private readonly jars = new Map<string, Map<string, string>>();
  private readonly webOrigin: string;

  constructor(
    private readonly webUrl: string,
    private readonly http: PacedHttp,
    private readonly fields: { usernameField: string; passwordField: string } = { usernameField: 'username', passwordField: 'password' },
  ) {
    this.webOrigin = new URL(webUrl).origin;
  }

  async login(browser: string, query: QueryPairs, credentials?: { username: string; password: string }): Promise<FrontObservation> {
    const pageUrl = `${this.webUrl}/login?${queryString(query)}`;
    const page = await this.http.send({ method: 'GET', url: pageUrl, headers: this.cookieHeader(browser) });
    const seen = this.observe(browser, page);
    if (!credentials || seen.kind === 'redirect') return seen;
    const form = loginFormOf(page.text, this.fields.usernameField, this.fields.passwordField);
    if (!form) return seen; // no form to type into (an error page): what the browser shows
    return this.observe(browser, await this.submit(form, pageUrl, credentials, { ...this.cookieHeader(browser), origin: this.webOrigin, referer: pageUrl, 'sec-fetch-site': 'same-origin' }));
  }

  async crossSitePost(query: QueryPairs, credentials: { username: string; password: string }, attackerOrigin: string): Promise<FrontObservation> {
    // The attacker fetches the form for itself (learning its action and static fields), then makes
    // the victim's browser post it: the attacker's cookies do not travel with that post.
    const pageUrl = `${this.webUrl}/login?${queryString(query)}`;
    const page = await this.http.send({ method: 'GET', url: pageUrl });
    const form = loginFormOf(page.text, this.fields.usernameField, this.fields.passwordField);
    if (!form) return this.observe(`cross-site-${Date.now()}`, page);
    const reply = await this.submit(form, pageUrl, credentials, { origin: attackerOrigin, referer: `${attackerOrigin}/`, 'sec-fetch-site': 'cross-site' });
    return this.observe(`cross-site-${Date.now()}`, reply);
  }

  cookiesOf(browser: string): [string, string][] {
    return [...(this.jars.get(browser) ?? [])];
  }

  plantCookies(browser: string, cookies: [string, string][]): void {
    this.jars.set(browser, new Map(cookies));
  }

  private submit(form: HtmlForm, pageUrl: string, credentials: { username: string; password: string }, headers: Record<string, string>): Promise<HttpReply> {
    const values = new URLSearchParams();
    for (const input of form.inputs) {
      if (['submit', 'button', 'image', 'reset', 'checkbox', 'radio', 'file'].includes(input.type)) continue;
      if (input.name === this.fields.usernameField) values.append(input.name, credentials.username);
      else if (input.name === this.fields.passwordField) values.append(input.name, credentials.password);
      else values.append(input.name, input.value);
    }
    const action = new URL(form.action ?? '', pageUrl);
    if (form.method === 'GET') {
      action.search = values.toString();
      return this.http.send({ method: 'GET', url: action.href, headers });
    }
    return this.http.send({ method: 'POST', url: action.href, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: values.toString() });
  }

  async logout(browser: string, query: QueryPairs): Promise<FrontObservation> {
    const url = `${this.webUrl}/logout?${queryString(query)}`;
    return this.observe(browser, await this.http.send({ method: 'GET', url, headers: this.cookieHeader(browser) }));
  }

  async close(): Promise<void> {
    this.jars.clear();
  }

  private cookieHeader(browser: string): Record<string, string> {
    const jar = this.jars.get(browser);
    if (!jar || jar.size === 0) return {};
    return { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
  }

  private observe(browser: string, reply: HttpReply): FrontObservation {
    const setCookie = reply.headers['set-cookie'] ?? [];
    const jar = this.jars.get(browser) ?? new Map<string, string>();
    for (const line of setCookie) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a)) || value === '';
      if (expired) jar.delete(name);
      else jar.set(name, value);
    }
    this.jars.set(browser, jar);
    const headers = flatHeaders(reply.headers);
    const location = headers['location'];
    if (reply.status >= 300 && reply.status < 400 && location !== undefined) {
      // An absolute Location is kept byte for byte: the properties compare it as a string.
      const absolute = /^[a-z][a-z0-9+.-]*:/i.test(location) ? location : new URL(location, this.webUrl).href;
      return { kind: 'redirect', status: reply.status, location: absolute, headers };
    }
    return { kind: 'page', status: reply.status, headers, text: visibleText(reply.text) };
  }
}

export function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
