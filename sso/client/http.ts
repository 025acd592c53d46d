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
  /** Per-request timeout: the longest silence before a request counts as unanswered (default 10 s). */
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
      // the request could reach the service (Node's documented `reusedSocket` pattern). A timeout
      // is not retried: the service already had its time.
      const stale = (e as { reusedSocket?: boolean }).reusedSocket === true && (e as NodeJS.ErrnoException).code === 'ECONNRESET';
      if ((!IDEMPOTENT.has(req.method) && !stale) || (e as NodeJS.ErrnoException).code === TIMED_OUT) throw transportError(req, e, this.timeoutMs);
      try {
        reply = await this.raw(req, true);
      } catch (again) {
        throw transportError(req, again, this.timeoutMs);
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
      r.on('timeout', () => r.destroy(Object.assign(new Error(`${req.method} ${url.pathname} timed out after ${this.timeoutMs} ms`), { code: TIMED_OUT })));
      r.on('error', (e) => reject(Object.assign(e, { reusedSocket: r.reusedSocket })));
      if (req.body !== undefined) r.write(req.body);
      r.end();
    });
  }
}

const TIMED_OUT = 'POLICYFUZZ_TIMEOUT';

/**
 * One line a user can act on: the request, the cause in words with its code, and the fix.
 * `sso check` prints it as it is (exit 2).
 */
function transportError(req: HttpRequest, e: unknown, timeoutMs: number): TransportError {
  const u = new URL(req.url);
  const code = e instanceof Error ? (e as NodeJS.ErrnoException).code : undefined;
  const cause = (() => {
    switch (code) {
      case TIMED_OUT:
        return `no answer within ${timeoutMs / 1000} s (timeout): check that the service is up and answers at ${u.origin}, or allow it longer with --timeout-ms`;
      case 'ECONNREFUSED':
        return `connection refused (ECONNREFUSED): nothing listens on ${u.host}; check the URL (--web, --api) and that the service is running`;
      case 'ECONNRESET':
        return `connection reset by the service (ECONNRESET): check the scheme (http or https) and the port of the URL, and that no proxy or firewall cuts the connection`;
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `host ${u.hostname} not found (${code}): check the host name in the URL`;
      case 'EPROTO':
      case 'ERR_SSL_WRONG_VERSION_NUMBER':
        return `the TLS handshake failed (${code}): the port may speak plain http; check the scheme of the URL`;
      default: {
        const what = e instanceof Error ? (code ?? e.message) : String(e);
        return `${what === 'socket hang up' ? 'the service closed the connection without an answer (socket hang up)' : `no answer (${what})`}: check the URL and that the service is healthy`;
      }
    }
  })();
  return new TransportError(`${req.method} ${u.origin}${u.pathname}: ${cause}`);
}

export function headerValue(reply: HttpReply, name: string): string | undefined {
  const v = reply.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}
