import { TokenResponseSchema, type TokenRequest, type TokenResponse } from '../model/schemas.ts';
import { headerValue, type HttpReply, type PacedHttp } from './http.ts';

/**
 * The back-channel client of any deployment: auth.token, user.profile, auth.status, and the
 * emulator's control API when the target has one.
 */
export interface TokenCall {
  method?: string;
  contentType: string | null;
  body: string;
  /** Extra headers or query (identity fields a caller might try to smuggle in). */
  headers?: Record<string, string | string[]>;
  query?: string;
}

export class SsoClient {
  constructor(
    readonly apiUrl: string,
    readonly http: PacedHttp,
  ) {}

  exchangeRaw(call: TokenCall): Promise<HttpReply> {
    const headers: Record<string, string | string[]> = { ...(call.headers ?? {}) };
    if (call.contentType !== null) headers['content-type'] = call.contentType;
    return this.http.send({ method: call.method ?? 'POST', url: `${this.apiUrl}/auth.token${call.query ? `?${call.query}` : ''}`, headers, body: call.body });
  }

  async exchange(body: TokenRequest): Promise<{ reply: HttpReply; parsed: TokenResponse | null }> {
    const reply = await this.exchangeRaw({ contentType: 'application/json', body: JSON.stringify(body) });
    return { reply, parsed: parseTokenResponse(reply) };
  }

  profile(authorization: readonly string[], extra: { body?: string; query?: string } = {}): Promise<HttpReply> {
    return this.bearerCall('user.profile', authorization, extra);
  }
  status(authorization: readonly string[], extra: { body?: string; query?: string } = {}): Promise<HttpReply> {
    return this.bearerCall('auth.status', authorization, extra);
  }

  private bearerCall(path: string, authorization: readonly string[], extra: { body?: string; query?: string }): Promise<HttpReply> {
    const headers: Record<string, string | string[]> = {};
    if (authorization.length === 1) headers['authorization'] = authorization[0]!;
    else if (authorization.length > 1) headers['authorization'] = [...authorization];
    if (extra.body !== undefined) headers['content-type'] = 'application/json';
    return this.http.send({ method: 'POST', url: `${this.apiUrl}/${path}${extra.query ? `?${extra.query}` : ''}`, headers, body: extra.body ?? '' });
  }

  // ---- control API (emulator only) ------------------------------------------------------

  async controlAvailable(): Promise<boolean> {
    try {
      const r = await this.http.send({ method: 'GET', url: `${this.apiUrl}/__control/health` });
      return r.status === 200 && (JSON.parse(r.text) as { emulator?: string }).emulator === 'policyfuzz-sso';
    } catch {
      return false;
    }
  }
  async advanceClock(ms: number): Promise<void> {
    const r = await this.http.send({ method: 'POST', url: `${this.apiUrl}/__control/clock`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceMs: ms }) });
    if (r.status !== 200) throw new Error(`control API refused to advance the clock: ${r.status} ${r.text}`);
  }
  async reset(): Promise<void> {
    const r = await this.http.send({ method: 'POST', url: `${this.apiUrl}/__control/reset`, body: '' });
    if (r.status !== 200) throw new Error(`control API refused reset: ${r.status}`);
  }
  async requestLog(): Promise<unknown[]> {
    const r = await this.http.send({ method: 'GET', url: `${this.apiUrl}/__control/log` });
    return (JSON.parse(r.text) as { entries: unknown[] }).entries;
  }
}

export function parseTokenResponse(reply: HttpReply): TokenResponse | null {
  if (reply.status !== 200 || !/json/i.test(headerValue(reply, 'content-type') ?? '')) return null;
  try {
    const r = TokenResponseSchema.safeParse(JSON.parse(reply.text));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** The body as JSON, or the raw text when it is not JSON (for side-by-side reports). */
export function bodyOf(reply: HttpReply): unknown {
  try {
    return JSON.parse(reply.text);
  } catch {
    return reply.text.length > 300 ? `${reply.text.slice(0, 300)}…` : reply.text;
  }
}
