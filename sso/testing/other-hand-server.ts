/**
 * An SSO service written from shared/spec/sso-service.md by another hand: plain node:http, none
 * of the model's or the emulator's code. It is correct by the spec but makes other choices where
 * the spec is silent, so `sso check` is shown to accept every secure reading:
 * - answers list their members in another order; `auth.token` parses JSON the usual lax way
 *   (a duplicate key keeps the last) and ignores unknown members (RFC 6749 §3.2);
 * - a wrong method gets 405 and a wrong content type 415 (not the AUTH0001 answer);
 * - two `Authorization` lines: node:http keeps the first;
 * - logout also kills the session's outstanding codes; replaying a code does not revoke its token;
 * - a wrong password gets the login page again with 200 and a message;
 * - the login form lives at /idp/login but posts to /idp/session, with the fields `login_name`
 *   and `secret`, a hidden CSRF token bound to the browser's cookie and a hidden transaction id;
 * - login redirects with 303.
 * `faults` switch on classic defects, one at a time, to show the properties catch them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export const OTHER_HAND_FAULTS = ['session-not-rotated', 'predictable-token', 'login-csrf-missing', 'code-never-expires'] as const;
export type OtherHandFault = (typeof OTHER_HAND_FAULTS)[number];

interface Client {
  appId: string;
  clientId: string;
  clientSecret: string;
  redirectUrl: string;
  logoutUrl: string;
}
interface User {
  username: string;
  password: string;
  role: string;
  email: string;
  immutableId: string;
  citizenId: string;
  firstName: string;
  lastName: string;
  employeeId: string;
  profile: Record<string, string>;
}

export interface OtherHandOptions {
  clients: readonly Client[];
  users: readonly User[];
  codeLifetimeSeconds: number;
  tokenLifetimeSeconds: number;
  faults?: readonly OtherHandFault[];
}

export interface OtherHandServer {
  webUrl: string;
  apiUrl: string;
  /** Every path asked for, in order (to show what a checker touched). */
  paths: string[];
  close(): Promise<void>;
}

interface Session {
  /** Shown by auth.status; never the cookie. */
  publicId: string;
  csrf: string;
  user: User | null;
  ended: boolean;
}
interface Code {
  client: Client;
  user: User;
  cookie: string;
  at: number;
  used: boolean;
}
interface Token {
  user: User;
  cookie: string;
  at: number;
  dead: boolean;
}

const COOKIE = 'idp_sid';
const HEADERS = {
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startOtherHandServer(opts: OtherHandOptions): Promise<OtherHandServer> {
  const fault = (f: OtherHandFault) => (opts.faults ?? []).includes(f);
  const sessions = new Map<string, Session>();
  const codes = new Map<string, Code>();
  const tokens = new Map<string, Token>();
  let tokenCounter = 0;
  let origin = '';

  const newAnonymous = (): [string, Session] => {
    const id = randomBytes(24).toString('base64url');
    const s: Session = { publicId: randomUUID(), csrf: randomBytes(24).toString('base64url'), user: null, ended: false };
    sessions.set(id, s);
    return [id, s];
  };
  const cookieOf = (req: IncomingMessage) => /(?:^|;\s*)idp_sid=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
  const appOf = (params: URLSearchParams) => {
    const apps = params.getAll('app');
    return apps.length === 1 ? (opts.clients.find((c) => c.appId === apps[0]) ?? null) : null;
  };
  const page = (res: ServerResponse, status: number, title: string, body: string): void =>
    void res.writeHead(status, { ...HEADERS, 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>${esc(title)}</title><main><h2>${esc(title)}</h2>${body}</main>`);
  const json = (res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void =>
    void res.writeHead(status, { ...HEADERS, ...extra, 'content-type': 'application/json' }).end(JSON.stringify(body));
  const fail = (res: ServerResponse) => json(res, 200, { error: 'AUTH0001', ok: false });
  const unauthorized = (res: ServerResponse) => res.writeHead(401, { ...HEADERS, 'www-authenticate': 'Bearer realm="idp"' }).end();
  const readBody = async (req: IncomingMessage, max: number): Promise<string | null> => {
    let size = 0;
    const parts: Buffer[] = [];
    for await (const c of req as AsyncIterable<Buffer>) {
      size += c.length;
      if (size <= max) parts.push(c);
    }
    return size > max ? null : Buffer.concat(parts).toString('utf8');
  };

  const loginForm = (res: ServerResponse, status: number, client: Client, session: Session, message?: string) =>
    page(
      res,
      status,
      `Sign in to ${client.appId}`,
      `${message ? `<p class="alert">${esc(message)}</p>` : ''}<form method="post" action="/idp/session">
<input type="hidden" name="_csrf" value="${esc(session.csrf)}"><input type="hidden" name="app" value="${esc(client.appId)}"><input type="hidden" name="tx" value="${randomUUID()}">
<label>Login name <input type="text" name="login_name"></label><label>Secret <input type="password" name="secret"></label><input type="submit" value="Continue"></form>`,
    );

  const issueCode = (res: ServerResponse, client: Client, user: User, cookie: string) => {
    const code = randomUUID();
    codes.set(code, { client, user, cookie, at: Date.now(), used: false });
    const u = new URL(client.redirectUrl);
    const sep = client.redirectUrl.includes('?') ? '&' : '?';
    res.writeHead(303, { ...HEADERS, location: `${client.redirectUrl.split('#')[0]}${sep}code=${code}${u.hash}` }).end();
  };

  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(new URL(req.url ?? '/', 'http://x').pathname);
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(400, HEADERS).end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    const url = new URL(req.url ?? '/', origin);
    const method = req.method ?? 'GET';
    if (url.pathname === '/idp/login' && method === 'GET') {
      const client = appOf(url.searchParams);
      if (!client) return page(res, 400, 'Unknown application', '<p>The link you followed names no application.</p>');
      let cookie = cookieOf(req);
      let session = cookie ? sessions.get(cookie) : undefined;
      if (session?.user && !session.ended) return issueCode(res, client, session.user, cookie!);
      if (!session || session.ended) {
        [cookie, session] = newAnonymous();
        res.setHeader('set-cookie', `${COOKIE}=${cookie}; Path=/idp; HttpOnly; SameSite=Lax`);
      }
      return loginForm(res, 200, client, session);
    }
    if (url.pathname === '/idp/session' && method === 'POST') {
      const form = new URLSearchParams((await readBody(req, 8192)) ?? '');
      const client = appOf(form);
      if (!client) return page(res, 400, 'Unknown application', '<p>The form names no application.</p>');
      const cookie = cookieOf(req);
      const session = cookie ? sessions.get(cookie) : undefined;
      if (!fault('login-csrf-missing')) {
        const sameSite = req.headers.origin === undefined || req.headers.origin === 'null' || req.headers.origin === origin; // 'null': a no-referrer page's own post
        const token = Buffer.from(form.get('_csrf') ?? '');
        const expected = Buffer.from(session?.csrf ?? '');
        if (!sameSite || !session || token.length !== expected.length || !timingSafeEqual(token, expected)) {
          return page(res, 403, 'Please try again', '<p>Your sign-in form expired or came from another site.</p>');
        }
      }
      const user = opts.users.find((u) => u.username === form.get('login_name') && u.password === form.get('secret'));
      if (!user) return loginForm(res, 200, client, session ?? newAnonymous()[1], 'Incorrect login name or secret.');
      let sid: string;
      if (fault('session-not-rotated') && cookie && session) {
        session.user = user; // the pre-login cookie now carries the session (fixation)
        sid = cookie;
      } else {
        if (cookie) sessions.delete(cookie);
        const [fresh, s] = newAnonymous();
        s.user = user;
        sid = fresh;
      }
      res.setHeader('set-cookie', `${COOKIE}=${sid}; Path=/idp; HttpOnly; SameSite=Lax`);
      return issueCode(res, client, user, sid);
    }
    if (url.pathname === '/idp/logout' && method === 'GET') {
      const client = appOf(url.searchParams);
      if (!client) return page(res, 400, 'Unknown application', '<p>The link you followed names no application.</p>');
      const cookie = cookieOf(req);
      const session = cookie ? sessions.get(cookie) : undefined;
      if (session) {
        session.ended = true;
        for (const t of tokens.values()) if (t.cookie === cookie) t.dead = true;
        for (const c of codes.values()) if (c.cookie === cookie) c.used = true; // outstanding codes die too
      }
      res.writeHead(302, { ...HEADERS, 'set-cookie': `${COOKIE}=; Path=/idp; Max-Age=0`, location: client.logoutUrl }).end();
      return;
    }
    if (url.pathname === '/v1/auth.token') {
      if (method !== 'POST') return json(res, 405, { error: 'method not allowed' }, { allow: 'POST' });
      if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) return json(res, 415, { error: 'unsupported media type' });
      const text = await readBody(req, 16 * 1024);
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text ?? '') as Record<string, unknown>;
      } catch {
        return fail(res);
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return fail(res);
      const { code, redirectUrl, clientId, clientSecret } = body;
      if (typeof code !== 'string' || typeof redirectUrl !== 'string' || typeof clientId !== 'string' || typeof clientSecret !== 'string') return fail(res);
      const entry = codes.get(code);
      if (!entry || entry.used) return fail(res);
      entry.used = true; // a failed client check burns the code too
      if (!fault('code-never-expires') && Date.now() - entry.at >= opts.codeLifetimeSeconds * 1000) return fail(res);
      const c = entry.client;
      if (c.clientId !== clientId || c.clientSecret !== clientSecret || c.redirectUrl !== redirectUrl) return fail(res);
      const token = fault('predictable-token') ? Buffer.from(`u-${entry.user.profile['userId']}:${++tokenCounter}`).toString('base64url') : randomBytes(32).toString('base64url');
      tokens.set(token, { user: entry.user, cookie: entry.cookie, at: Date.now(), dead: false });
      const u = entry.user;
      return json(res, 200, { employeeId: u.employeeId, lastName: u.lastName, firstName: u.firstName, citizenId: u.citizenId, immutableId: u.immutableId, email: u.email, accessToken: token, ok: true });
    }
    if (url.pathname === '/v1/user.profile' || url.pathname === '/v1/auth.status') {
      await readBody(req, 64 * 1024);
      if (method !== 'POST') return json(res, 405, { error: 'method not allowed' }, { allow: 'POST' });
      const m = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(req.headers.authorization ?? '');
      const t = m ? tokens.get(m[1]!) : undefined;
      if (!t || t.dead || Date.now() - t.at >= opts.tokenLifetimeSeconds * 1000) return unauthorized(res);
      const u = t.user;
      if (url.pathname === '/v1/user.profile') {
        return json(res, 200, { profile: { lastname: u.lastName, firstname: u.firstName, citizenId: u.citizenId, email: u.email, ...u.profile }, ok: true });
      }
      const session = sessions.get(t.cookie);
      return json(res, 200, { user: { role: u.role, email: u.email, sessionId: session?.publicId ?? 'ended' }, ok: true });
    }
    return page(res, 404, 'Not found', '');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    webUrl: `${origin}/idp`,
    apiUrl: `${origin}/v1`,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
