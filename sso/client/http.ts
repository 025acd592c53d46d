import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

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
 * The request never got an answer (refused, reset, timed out): a problem of the environment,
 * reported as such (exit 2), never shrunk as a finding.
 */
export class TransportError extends Error {
  override name = 'TransportError';
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

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
      // A kept-alive socket the server closed while we paused: retry once on a fresh connection.
      // Safe for idempotent methods, and for any method when the reused socket was reset before
      // the request could reach the service (Node's documented `reusedSocket` pattern).
      const stale = (e as { reusedSocket?: boolean }).reusedSocket === true && (e as NodeJS.ErrnoException).code === 'ECONNRESET';
      if (!IDEMPOTENT.has(req.method) && !stale) throw transportError(req, e);
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
      const r = send(url, { method: req.method, headers, timeout: this.timeoutMs, ...(freshConnection ? { agent: false } : {}) }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      r.on('timeout', () => r.destroy(new Error(`${req.method} ${url.pathname} timed out after ${this.timeoutMs} ms`)));
      r.on('error', (e) => reject(Object.assign(e, { reusedSocket: r.reusedSocket })));
      if (req.body !== undefined) r.write(req.body);
      r.end();
    });
  }
}

function transportError(req: HttpRequest, e: unknown): TransportError {
  const u = new URL(req.url);
  return new TransportError(`${req.method} ${u.origin}${u.pathname} got no answer (${e instanceof Error ? ((e as NodeJS.ErrnoException).code ?? e.message) : String(e)}): the target is unreachable or closed the connection`);
}

export function headerValue(reply: HttpReply, name: string): string | undefined {
  const v = reply.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}
