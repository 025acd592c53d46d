import type { QueryPairs } from '../model/front-channel.ts';
import { queryString, type FrontObservation, type LoginDriver } from './driver.ts';
import type { HttpReply, PacedHttp } from './http.ts';
import { findLoginForm } from './html-form.ts';

export interface FormFieldNames {
  /** `name` of the username input (default `username`). */
  usernameField: string;
  /** `name` of the password input, which must be `type="password"` (default `password`). */
  passwordField: string;
}

/**
 * Drives the front channel with plain HTTP, as a browser without scripts would: GET the login
 * page, read its form (action, method, hidden inputs such as a CSRF token), fill the configured
 * username and password fields and submit it, sending the page's Origin. One cookie jar per browser.
 */
export class FormPostDriver implements LoginDriver {
  readonly name = 'form-post';
  private readonly jars = new Map<string, Map<string, string>>();
  private readonly origin: string;

  constructor(
    private readonly webUrl: string,
    private readonly http: PacedHttp,
    private readonly names: FormFieldNames = { usernameField: 'username', passwordField: 'password' },
  ) {
    this.origin = new URL(webUrl).origin;
  }

  async login(browser: string, query: QueryPairs, credentials?: { username: string; password: string }): Promise<FrontObservation> {
    const url = `${this.webUrl}/login?${queryString(query)}`;
    const page = this.observe(browser, url, await this.http.send({ method: 'GET', url, headers: this.cookieHeader(browser) }));
    if (!credentials || page.kind === 'redirect' || page.status !== 200) return page;
    const form = findLoginForm(page.body ?? '', url, this.names.passwordField);
    // No form to fill: report the page as it is (the preflight says what it showed).
    if (!form) return page;
    const fields = new URLSearchParams(form.fields.filter(([k]) => k !== this.names.usernameField && k !== this.names.passwordField));
    fields.append(this.names.usernameField, credentials.username);
    fields.append(this.names.passwordField, credentials.password);
    const headers = { ...this.cookieHeader(browser), origin: this.origin };
    if (form.method === 'GET') {
      const target = new URL(form.action);
      target.search = fields.toString();
      return this.observe(browser, target.href, await this.http.send({ method: 'GET', url: target.href, headers }));
    }
    const reply = await this.http.send({ method: 'POST', url: form.action, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: fields.toString() });
    return this.observe(browser, form.action, reply);
  }

  async logout(browser: string, query: QueryPairs, options: { referer?: string } = {}): Promise<FrontObservation> {
    const url = `${this.webUrl}/logout?${queryString(query)}`;
    return this.observe(browser, url, await this.http.send({ method: 'GET', url, headers: { ...this.cookieHeader(browser), ...(options.referer ? { referer: options.referer } : {}) } }));
  }

  async close(): Promise<void> {
    this.jars.clear();
  }

  async endCase(): Promise<void> {
    this.jars.clear();
  }

  /** A copy of a browser's cookies (to plant them in another browser, as an attacker would). */
  cookiesOf(browser: string): Map<string, string> {
    return new Map(this.jars.get(browser) ?? []);
  }
  setCookies(browser: string, cookies: ReadonlyMap<string, string>): void {
    this.jars.set(browser, new Map(cookies));
  }

  /** The login form as the service serves it to `browser` (null when the page has none). */
  async loginForm(browser: string, query: QueryPairs): Promise<{ seen: FrontObservation; form: ReturnType<typeof findLoginForm> }> {
    const url = `${this.webUrl}/login?${queryString(query)}`;
    const seen = this.observe(browser, url, await this.http.send({ method: 'GET', url, headers: this.cookieHeader(browser) }));
    return { seen, form: seen.kind === 'page' ? findLoginForm(seen.body ?? '', url, this.names.passwordField) : null };
  }

  /** Submit `fields` to `action` from `browser` with the given Origin (another site's, for login CSRF). */
  async submit(browser: string, action: string, fields: [string, string][], origin: string): Promise<FrontObservation> {
    const reply = await this.http.send({
      method: 'POST',
      url: action,
      headers: { ...this.cookieHeader(browser), origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    return this.observe(browser, action, reply);
  }

  get fieldNames(): FormFieldNames {
    return this.names;
  }

  private cookieHeader(browser: string): Record<string, string> {
    const jar = this.jars.get(browser);
    if (!jar || jar.size === 0) return {};
    return { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
  }

  private observe(browser: string, requestUrl: string, reply: HttpReply): FrontObservation {
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
      const absolute = /^[a-z][a-z0-9+.-]*:/i.test(location) ? location : new URL(location, requestUrl).href;
      return { kind: 'redirect', status: reply.status, location: absolute, headers };
    }
    return { kind: 'page', status: reply.status, headers, body: reply.text };
  }
}

export function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
