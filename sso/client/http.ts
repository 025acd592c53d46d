import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/**
 * The one road every request of `sso check` takes: a hard request budget, a minimum spacing
 * between requests (safe on a shared UAT service), a per-request timeout, and a stop at the
 * first sign of rate limiting or lockout. Built on node:http so a request can carry repeated
 * headers (two Authorization lines) exactly as given.
 */
export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string | string[]>;
  body?: string;
}
export interface HttpReply {
  status: number;
  /** Lower-case names; repeated headers kept as arrays. */
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export class BudgetExhausted extends Error {
  override name = 'BudgetExhausted';
}
/** The target said "slow down" or "locked": stop, do not keep knocking. */
export class TargetRefused extends Error {
  override name = 'TargetRefused';
}

/**
 * The connection failed (reset, refused, hung up, timed out): an environment problem, reported
 * as such and never shrunk as a finding.
 */
export class TransportError extends Error {
  override name = 'TransportError';
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Keep-alive connections are dropped after 2 s idle, well before servers close them (node:http
 * 5 s, nginx 75 s), so a request after a pause does not meet a socket the server already closed.
 */
const IDLE_SOCKET_MS = 2000;
const agents = { http: new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }), https: new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }) };

export interface PacedHttpOptions {
  /** Most requests this run may send (default 20 000). */
  maxRequests?: number;
  /** Least milliseconds between the starts of two requests (default 0). */
  throttleMs?: number;
  /** Per-request timeout (default 10 s). */
  timeoutMs?: number;
}

export class PacedHttp {
  readonly maxRequests: number;
  readonly throttleMs: number;
  readonly timeoutMs: number;
  private sent = 0;
  private nextStartAt = 0;

  constructor(opts: PacedHttpOptions = {}) {
    this.maxRequests = opts.maxRequests ?? 20_000;
    this.throttleMs = opts.throttleMs ?? 0;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  get used(): number {
    return this.sent;
  }

  /** Charge one request to the budget and wait for its turn (also used by the browser driver). */
  async acquire(): Promise<void> {
    if (this.sent >= this.maxRequests) throw new BudgetExhausted(`request budget of ${this.maxRequests} used up`);
    this.sent++;
    if (this.throttleMs > 0) {
      const now = Date.now();
      const wait = Math.max(0, this.nextStartAt - now);
      this.nextStartAt = Math.max(now, this.nextStartAt) + this.throttleMs;
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  }

  async send(req: HttpRequest): Promise<HttpReply> {
    await this.acquire();
    let reply: HttpReply;
    try {
      reply = await this.raw(req, false);
    } catch (e) {
      // A keep-alive socket the server closed while we paused: retry once on a fresh connection,
      // for requests that may safely be sent twice.
      if (!IDEMPOTENT.has(req.method.toUpperCase())) throw transportError(req, e);
      try {
        reply = await this.raw(req, true);
      } catch (again) {
        throw transportError(req, again);
      }
    }
    if (reply.status === 429 || reply.status === 423) {
      throw new TargetRefused(`${req.method} ${new URL(req.url).pathname} answered ${reply.status}: stopping (rate limit or lockout)`);
    }
    return reply;
  }

  private raw(req: HttpRequest, freshConnection: boolean): Promise<HttpReply> {
    const url = new URL(req.url);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers: Record<string, string | string[]> = { ...(req.headers ?? {}) };
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
    return new Promise((resolve, reject) => {
      const agent = freshConnection ? false : url.protocol === 'https:' ? agents.https : agents.http;
      const r = send(url, { method: req.method, headers, timeout: this.timeoutMs, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      r.on('timeout', () => r.destroy(new Error(`${req.method} ${url.pathname} timed out after ${this.timeoutMs} ms`)));
      r.on('error', reject);
      if (req.body !== undefined) r.write(req.body);
      r.end();
    });
  }
}

function transportError(req: HttpRequest, e: unknown): TransportError {
  const detail = e instanceof Error ? `${(e as NodeJS.ErrnoException).code ? `${(e as NodeJS.ErrnoException).code}: ` : ''}${e.message}` : String(e);
  return new TransportError(`transport error on ${req.method} ${new URL(req.url).pathname}: ${detail} (an environment problem, not a finding)`);
}

export function headerValue(reply: HttpReply, name: string): string | undefined {
  const v = reply.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}
