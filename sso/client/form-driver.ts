import type { QueryPairs } from '../model/front-channel.ts';
import { queryString, type FrontObservation, type LoginDriver } from './driver.ts';
import type { HttpReply, PacedHttp } from './http.ts';

/**
 * Drives the front channel with plain HTTP: GET the page, or POST the form fields straight to
 * `/login?query` (the emulator's form posts back to its own URL). One cookie jar per browser.
 */
export class FormPostDriver implements LoginDriver {
  readonly name = 'form-post';
  private readonly jars = new Map<string, Map<string, string>>();

  constructor(
    private readonly webUrl: string,
    private readonly http: PacedHttp,
  ) {}

  async login(browser: string, query: QueryPairs, credentials?: { username: string; password: string }): Promise<FrontObservation> {
    const url = `${this.webUrl}/login?${queryString(query)}`;
    if (!credentials) return this.observe(browser, await this.http.send({ method: 'GET', url, headers: this.cookieHeader(browser) }));
    const body = new URLSearchParams({ username: credentials.username, password: credentials.password }).toString();
    const reply = await this.http.send({
      method: 'POST',
      url,
      headers: { ...this.cookieHeader(browser), 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    return this.observe(browser, reply);
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
    return { kind: 'page', status: reply.status, headers };
  }
}

export function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
