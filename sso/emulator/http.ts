import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LogHandle } from './request-log.ts';

/**
 * The emulator's HTTP vocabulary: a request as the routes read it, a reply as a value, and the
 * middleware that wraps a handler. Routes return replies instead of writing to the socket, so a
 * request hook can change what a route reads and a response hook can change what it answered.
 */

export const SESSION_COOKIE = 'pf_sso_session';
export const API_PREFIX = '/api';

/** Sent on every reply, the login page included. */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "frame-ancestors 'none'; default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  Pragma: 'no-cache',
};

export type Endpoint = 'login' | 'logout' | 'auth.token' | 'user.profile' | 'auth.status' | 'control' | 'none';

/** Which endpoint a path names (the control API only when it is served). */
export function endpointOf(path: string, control: boolean): Endpoint {
  if (path === '/login') return 'login';
  if (path === '/logout') return 'logout';
  if (path === `${API_PREFIX}/auth.token`) return 'auth.token';
  if (path === `${API_PREFIX}/user.profile`) return 'user.profile';
  if (path === `${API_PREFIX}/auth.status`) return 'auth.status';
  if (control && path.startsWith(`${API_PREFIX}/__control/`)) return 'control';
  return 'none';
}

/** The parts of an HTTP request the routes read. */
export interface EmulatorRequest {
  readonly endpoint: Endpoint;
  readonly method: string;
  readonly url: URL;
  /** The `Origin` header, if sent. */
  readonly origin: string | undefined;
  readonly host: string;
  /** The session cookie's value, if sent. */
  readonly sessionCookie: string | undefined;
  /** Every `Authorization` line, in order. */
  readonly authorization: readonly string[];
  readonly contentType: string | undefined;
  /** The body as text, or null when it is longer than `limit` bytes. Read it once. */
  readBody(limit: number): Promise<string | null>;
  readonly log: LogHandle;
}

/** What a successful login hands out. Never sent: for response hooks. */
export interface IssuedCode {
  code: string;
  /** The cookie of the browser session the code belongs to. */
  sessionCookie: string;
}

/** Why auth.token answered its uniform failure (the answer itself never says). Never sent. */
export interface TokenRefusal {
  step: 'method' | 'too-large' | 'content-type' | 'malformed-json' | 'schema' | 'exchange';
  detail?: string;
}

export interface Reply {
  readonly status: number;
  /** In the order they are sent. */
  readonly headers: Readonly<Record<string, string>>;
  /** Absent: an empty body. */
  readonly body?: string;
  readonly issued?: IssuedCode;
  readonly refusal?: TokenRefusal;
}

export type Handler = (req: EmulatorRequest) => Promise<Reply>;
/** Wraps a handler: it may change the request before it, change the reply after it, or answer itself. */
export type Middleware = (req: EmulatorRequest, next: Handler) => Promise<Reply>;

/** The handler wrapped in the middleware; the first one is innermost. */
export function wrap(handler: Handler, middleware: readonly Middleware[]): Handler {
  return middleware.reduce<Handler>((next, m) => (req) => m(req, next), handler);
}

/** A reply with the security headers first, then `headers` in their order. */
export function reply(status: number, headers: Record<string, string>, body?: string): Reply {
  return { status, headers: { ...SECURITY_HEADERS, ...headers }, ...(body === undefined ? {} : { body }) };
}
export function jsonReply(status: number, body: unknown, before: Record<string, string> = {}): Reply {
  return reply(status, { ...before, 'Content-Type': 'application/json; charset=utf-8' }, JSON.stringify(body));
}
export function htmlReply(status: number, html: string): Reply {
  return reply(status, { 'Content-Type': 'text/html; charset=utf-8' }, html);
}
export function unauthorizedReply(): Reply {
  return reply(401, { 'WWW-Authenticate': 'Bearer', 'Content-Type': 'text/plain' }, 'Unauthorized');
}
export function redirectReply(status: number, location: string, setCookie?: string): Reply {
  return reply(status, { ...(setCookie === undefined ? {} : { 'Set-Cookie': setCookie }), Location: location });
}
export function isRedirect(r: Reply): boolean {
  return r.status >= 300 && r.status < 400 && r.headers['Location'] !== undefined;
}

export function writeReply(res: ServerResponse, r: Reply): void {
  res.writeHead(r.status, r.headers);
  if (r.body === undefined) res.end();
  else res.end(r.body);
}

/** The request as the routes read it; the body is read at most once, bounded. */
export function emulatorRequestOf(req: IncomingMessage, url: URL, endpoint: Endpoint, log: LogHandle): EmulatorRequest {
  return {
    endpoint,
    method: req.method ?? 'GET',
    url,
    origin: req.headers['origin'],
    host: req.headers['host'] ?? '',
    sessionCookie: cookieOf(req.headers.cookie ?? ''),
    authorization: req.headersDistinct.authorization ?? [],
    contentType: req.headers['content-type'],
    readBody: (limit) => readBody(req, limit),
    log,
  };
}

function cookieOf(header: string): string | undefined {
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === SESSION_COOKIE) return v.join('=');
  }
  return undefined;
}

async function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) over = true;
    else chunks.push(chunk);
    if (size > limit + 8 * 1024 * 1024) { req.destroy(); break; } // bounded: stop reading a flood
  }
  return over ? null : Buffer.concat(chunks).toString('utf8');
}
