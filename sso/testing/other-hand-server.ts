/**
 * An SSO service written from shared/spec/sso-service.md in a different hand from the emulator:
 * plain node:http, its own storage and parsing, other URLs (web under /sso, API under /svc/v1),
 * a login form with other field names, a hidden CSRF field bound to a pre-login session, and a
 * separate action URL. It is correct by the spec but makes other allowed choices than the
 * emulator: 303 redirects, JSON members in another order, lax JSON (a duplicate key keeps the
 * last copy, unknown members are ignored), 405/415 for a wrong method or content type, the first
 * of two Authorization lines (node:http's own rule), a wrong password answered 200 with a
 * message, logout that also kills the session's outstanding codes, and no token revocation on a
 * replayed code (a should), RFC 9207's `iss` beside the code in its post-login redirect, and a
 * `redirect_uri` login parameter that picks one of a client's several registered Redirect URLs
 * (a code redeems only with the URL it was sent to), and an error page that names the unknown
 * `app` asked for (escaped). `sso check` must pass on it.
 *
 * Faults (switches) add one classic defect each, for the properties that exist to catch them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { ClientRegistration, UserRecord } from '../model/schemas.ts';

export const OTHER_HAND_FAULTS = ['session-not-rotated', 'predictable-tokens', 'cross-site-login', 'code-never-expires', 'session-in-redirect', 'code-bound-to-client-only', 'wrong-iss', 'state-truncated', 'profile-cache', 'revocation-cached', 'token-request-in-query', 'token-request-as-form', 'logout-follows-referer', 'markup-reflection', 'token-field-renamed'] as const;
export type OtherHandFault = (typeof OTHER_HAND_FAULTS)[number];

export interface OtherHandOptions {
  clients: readonly ClientRegistration[];
  users: readonly UserRecord[];
  codeLifetimeMs?: number;
  tokenLifetimeMs?: number;
  faults?: readonly OtherHandFault[];
}

export interface OtherHandServer {
  webUrl: string;
  apiUrl: string;
  close(): Promise<void>;
}

/** The login form's field names and the settings a config must declare for this server. */
export const OTHER_HAND_FORM = { usernameField: 'login_name', passwordField: 'secret_word' } as const;
export const OTHER_HAND_SETTINGS = { loginRedirectStatus: 303, logoutRedirectStatus: 303 } as const;

/**
 * A config for this server from a base config (the example): its form's field names and
 * settings, and a second Redirect URL registered for the first client.
 */
export function otherHandConfig<C extends { clients: { redirectUrl: string }[] }>(base: C, codeLifetimeSeconds?: number) {
  return {
    ...base,
    clients: base.clients.map((c, i) => (i === 0 ? { ...c, redirectUrls: [c.redirectUrl, `${c.redirectUrl}-mobile`] } : c)),
    settings: { ...OTHER_HAND_SETTINGS, ...(codeLifetimeSeconds === undefined ? {} : { codeLifetimeSeconds }) },
    loginPage: OTHER_HAND_FORM,
  };
}

interface WebSession {
  csrf: string;
  user: UserRecord | null;
  publicId: string;
  authenticatedAt: number;
}
interface IssuedCode {
  client: ClientRegistration;
  /** The registered Redirect URL the code was sent to: the only one it redeems with. */
  redirectUrl: string;
  user: UserRecord;
  sid: string;
  at: number;
  used: boolean;
}
interface IssuedToken {
  user: UserRecord;
  sid: string;
  at: number;
  revoked: boolean;
}

const SESSION_LIFETIME_MS = 8 * 3600_000;
const HTML_HEADERS = { 'content-type': 'text/html; charset=utf-8', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' };

export async function startOtherHandServer(opts: OtherHandOptions): Promise<OtherHandServer> {
  const faults = new Set(opts.faults ?? []);
  const codeLifetime = opts.codeLifetimeMs ?? 60_000;
  const tokenLifetime = opts.tokenLifetimeMs ?? 3600_000;
  const sessions = new Map<string, WebSession>();
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, IssuedToken>();
  let tokenCounter = 0;
  /** Fault profile-cache: a profile once read is served again for its token, checked or not. */
  const profileCache = new Map<string, unknown>();
  /** Fault revocation-cached: tokens once accepted, served without a second look. */
  const acceptedTokens = new Map<string, IssuedToken>();

  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const page = (res: ServerResponse, status: number, title: string, body: string, cookies: string[] = []) => {
    res.writeHead(status, { ...HTML_HEADERS, ...(cookies.length ? { 'set-cookie': cookies } : {}) });
    res.end(`<!DOCTYPE html><html><head><title>${esc(title)}</title></head><body>${body}</body></html>`);
  };
  const json = (res: ServerResponse, status: number, value: unknown, extra: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...extra });
    res.end(value === undefined ? '' : JSON.stringify(value));
  };
  const cookie = (req: IncomingMessage, name: string) => {
    for (const part of (req.headers.cookie ?? '').split(';')) {
      const [k, ...v] = part.trim().split('=');
      if (k === name) return v.join('=');
    }
    return undefined;
  };
  /** The error page of a bad `app`: it names the value asked for, escaped (fault markup-reflection: verbatim). */
  const unknownApp = (res: ServerResponse, url: URL) => {
    const asked = url.searchParams.getAll('app').join(', ');
    return page(res, 400, 'Error', `<p>Unknown application: <b>${faults.has('markup-reflection') ? asked : esc(asked)}</b>.</p>`);
  };
  const appOf = (url: URL) => {
    const apps = url.searchParams.getAll('app');
    return apps.length === 1 ? (opts.clients.find((c) => c.appId === apps[0]) ?? null) : null;
  };
  const readBody = (req: IncomingMessage) =>
    new Promise<string | null>((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= 16 * 1024) chunks.push(c);
      });
      req.on('end', () => resolve(size > 16 * 1024 ? null : Buffer.concat(chunks).toString('utf8')));
      req.on('error', () => resolve(null));
    });
  const newSid = () => randomBytes(24).toString('hex');
  const sidCookie = (sid: string) => `osid=${sid}; Path=/sso; HttpOnly; SameSite=Lax`;
  const liveUser = (s: WebSession | undefined, now: number) => (s?.user && now - s.authenticatedAt < SESSION_LIFETIME_MS ? s.user : null);
  // The issuer identifier (RFC 9207), set once the port is known.
  let issuer = '';
  /** The registered Redirect URL a login asks for (`redirect_uri`), or the client's first one. */
  const redirectOf = (url: URL, client: ClientRegistration) => {
    const asked = url.searchParams.getAll('redirect_uri');
    const registered = client.redirectUrls ?? [client.redirectUrl];
    return asked.length === 1 && registered.includes(asked[0]!) ? asked[0]! : client.redirectUrl;
  };
  /** The client's `state`, echoed on the redirect (exactly one, or none). */
  const stateOf = (url: URL) => {
    const states = url.searchParams.getAll('state');
    return states.length === 1 ? states[0]! : null;
  };
  const issueCode = (res: ServerResponse, client: ClientRegistration, redirectUrl: string, state: string | null, user: UserRecord, sid: string, cookies: string[]) => {
    const code = randomUUID();
    codes.set(code, { client, redirectUrl, user, sid, at: Date.now(), used: false });
    const url = redirectUrl;
    const hash = url.indexOf('#');
    const base = hash < 0 ? url : url.slice(0, hash);
    const sep = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
    // RFC 9207: the issuer goes with the code, before it (the client must find the code anyway).
    // Fault wrong-iss: the issuer of another deployment (a copied configuration).
    const params = new URLSearchParams([['iss', faults.has('wrong-iss') ? 'https://sso-staging.uni.example' : issuer], ['code', code]]);
    // Fault state-truncated: the state is kept in a 32-character column.
    if (state !== null) params.append('state', faults.has('state-truncated') ? state.slice(0, 32) : state);
    // Fault: the session cookie's value rides along as OIDC's session_state.
    if (faults.has('session-in-redirect')) params.append('session_state', sid);
    res.writeHead(303, { location: `${base}${sep}${params}${hash < 0 ? '' : url.slice(hash)}`, 'referrer-policy': 'no-referrer', 'cache-control': 'no-store', ...(cookies.length ? { 'set-cookie': cookies } : {}) });
    res.end();
  };
  const loginForm = (res: ServerResponse, status: number, client: ClientRegistration, redirectUrl: string, state: string | null, s: WebSession, cookies: string[], message = '') =>
    page(
      res,
      status,
      'Sign in',
      `<main><h2>University sign-in</h2>${message ? `<div class="msg">${esc(message)}</div>` : ''}
<form class="signin" method="POST" action="/sso/authenticate?${esc(new URLSearchParams([['app', client.appId], ...(redirectUrl === client.redirectUrl ? [] : [['redirect_uri', redirectUrl]]), ...(state === null ? [] : [['state', state]])]).toString())}">
<input type="hidden" name="csrf_token" value="${esc(s.csrf)}"><input type="hidden" name="txn" value="${esc(randomUUID())}">
<p><label>Account <input type="text" name="login_name"></label></p><p><label>Pass phrase <input type="password" name="secret_word"></label></p>
<p><input type="checkbox" name="remember" value="yes"> Remember me</p><button type="submit" name="go" value="1">Continue</button></form></main>`,
      cookies,
    );

  async function web(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const now = Date.now();
    const method = req.method ?? 'GET';
    if (url.pathname === '/sso/login' && method === 'GET') {
      const client = appOf(url);
      if (!client) return unknownApp(res, url);
      let sid = cookie(req, 'osid');
      let s = sid ? sessions.get(sid) : undefined;
      if (liveUser(s, now)) return issueCode(res, client, redirectOf(url, client), stateOf(url), s!.user!, sid!, []);
      const cookies: string[] = [];
      if (!s) {
        // A pre-login session holds the CSRF token of the form.
        sid = newSid();
        s = { csrf: randomBytes(16).toString('base64url'), user: null, publicId: randomUUID(), authenticatedAt: 0 };
        sessions.set(sid, s);
        cookies.push(sidCookie(sid));
      }
      return loginForm(res, 200, client, redirectOf(url, client), stateOf(url), s, cookies);
    }
    if (url.pathname === '/sso/authenticate' && method === 'POST') {
      const body = (await readBody(req)) ?? '';
      const client = appOf(url);
      if (!client) return unknownApp(res, url);
      const form = new URLSearchParams(body);
      const sid = cookie(req, 'osid');
      const s = sid ? sessions.get(sid) : undefined;
      const origin = req.headers.origin;
      const sameSite = origin === undefined || origin === 'null' || origin === `http://${req.headers.host}`;
      if (!faults.has('cross-site-login') && (!s || !sameSite || form.get('csrf_token') !== s.csrf)) {
        return page(res, 403, 'Expired', '<p>Your sign-in form expired or came from another site. Please start again.</p>');
      }
      const user = opts.users.find((u) => u.username === form.get('login_name') && u.password === form.get('secret_word'));
      if (!user) {
        const anon = s ?? { csrf: randomBytes(16).toString('base64url'), user: null, publicId: randomUUID(), authenticatedAt: 0 };
        return loginForm(res, 200, client, redirectOf(url, client), stateOf(url), anon, [], 'The account or pass phrase is not correct.');
      }
      if (faults.has('session-not-rotated') && sid && s) {
        // Fault: the pre-login session id becomes the authenticated one (session fixation).
        Object.assign(s, { user, authenticatedAt: now });
        return issueCode(res, client, redirectOf(url, client), stateOf(url), user, sid, []);
      }
      if (sid) sessions.delete(sid);
      const fresh = newSid();
      sessions.set(fresh, { csrf: randomBytes(16).toString('base64url'), user, publicId: randomUUID(), authenticatedAt: now });
      return issueCode(res, client, redirectOf(url, client), stateOf(url), user, fresh, [sidCookie(fresh)]);
    }
    if (url.pathname === '/sso/logout' && method === 'GET') {
      const client = appOf(url);
      // Fault logout-follows-referer: without a known app, logout goes back where the browser came from.
      if (!client && faults.has('logout-follows-referer') && req.headers.referer) {
        res.writeHead(303, { location: req.headers.referer, 'cache-control': 'no-store' });
        return void res.end();
      }
      if (!client) return unknownApp(res, url);
      const sid = cookie(req, 'osid');
      const cookies: string[] = [];
      if (sid && sessions.has(sid)) {
        for (const t of tokens.values()) if (t.sid === sid) t.revoked = true;
        // Stricter than the emulator: outstanding codes of the session die with it.
        for (const c of codes.values()) if (c.sid === sid) c.used = true;
        if (faults.has('session-not-rotated')) sessions.get(sid)!.user = null;
        else {
          sessions.delete(sid);
          cookies.push(`osid=; Path=/sso; HttpOnly; Max-Age=0`);
        }
      }
      res.writeHead(303, { location: client.logoutUrl, 'cache-control': 'no-store', ...(cookies.length ? { 'set-cookie': cookies } : {}) });
      return void res.end();
    }
    return page(res, 404, 'Not found', '<p>Not found.</p>');
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const now = Date.now();
    const method = req.method ?? 'GET';
    const endpoint = url.pathname.slice('/svc/v1/'.length);
    if (!['auth.token', 'user.profile', 'auth.status'].includes(endpoint)) return json(res, 404, { error: 'not found' });
    const body = await readBody(req);
    // Fault token-request-in-query: auth.token takes its fields from the query string (GET or POST).
    // Fault token-request-as-form: auth.token takes them from a form-encoded body.
    const isToken = endpoint === 'auth.token';
    const laxFields =
      isToken && faults.has('token-request-in-query') && url.searchParams.has('code')
        ? url.searchParams
        : isToken && faults.has('token-request-as-form') && /urlencoded/i.test(req.headers['content-type'] ?? '')
          ? new URLSearchParams(body ?? '')
          : null;
    if (method !== 'POST' && !laxFields) return json(res, 405, { error: 'method not allowed' }, { allow: 'POST' });
    if (endpoint === 'auth.token') {
      const fail = () => json(res, 200, { error: 'AUTH0001', ok: false });
      let parsed: unknown;
      if (laxFields) parsed = Object.fromEntries(laxFields);
      else {
        if (!/^application\/json\s*(;\s*charset=utf-8)?$/i.test(req.headers['content-type'] ?? '')) return json(res, 415, { error: 'unsupported media type' });
        if (body === null) return fail();
        try {
          parsed = JSON.parse(body);
        } catch {
          return fail();
        }
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return fail();
      const { code, redirectUrl, clientId, clientSecret } = parsed as Record<string, unknown>;
      if (typeof code !== 'string' || typeof redirectUrl !== 'string' || typeof clientId !== 'string' || typeof clientSecret !== 'string') return fail();
      const issued = codes.get(code);
      if (!issued || issued.used) return fail(); // a replay: refused, but its token stays (a should)
      if (!faults.has('code-never-expires') && now - issued.at >= codeLifetime) return fail();
      issued.used = true; // any attempt on a live code burns it
      const c = issued.client;
      // Fault: any Redirect URL registered for the client redeems the code, not only the one it was sent to.
      const urlOk = faults.has('code-bound-to-client-only') ? (c.redirectUrls ?? [c.redirectUrl]).includes(redirectUrl) : issued.redirectUrl === redirectUrl;
      if (c.clientId !== clientId || c.clientSecret !== clientSecret || !urlOk) return fail();
      const u = issued.user;
      const token = faults.has('predictable-tokens') ? Buffer.from(`${u.immutableId}:${++tokenCounter}`).toString('base64url') : randomBytes(32).toString('base64url');
      tokens.set(token, { user: u, sid: issued.sid, at: now, revoked: false });
      // Fault token-field-renamed (schema drift): the token goes out as OAuth's access_token.
      const tokenField = faults.has('token-field-renamed') ? 'access_token' : 'accessToken';
      return json(res, 200, { [tokenField]: token, employeeId: u.employeeId, lastName: u.lastName, firstName: u.firstName, citizenId: u.citizenId, immutableId: u.immutableId, email: u.email, ok: true });
    }
    // node:http keeps the first of two Authorization lines.
    const m = /^bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(req.headers.authorization ?? '');
    if (m && endpoint === 'user.profile' && faults.has('profile-cache') && profileCache.has(m[1]!)) return json(res, 200, profileCache.get(m[1]!));
    // Fault revocation-cached: a token once accepted is served from a cache, on both endpoints,
    // that logout does not clear: a cold read after logout gets 401, a warm one 200.
    const cached = m && faults.has('revocation-cached') ? acceptedTokens.get(m[1]!) : undefined;
    const found = m ? tokens.get(m[1]!) : undefined;
    if (!cached && (!found || found.revoked || now - found.at >= tokenLifetime)) return json(res, 401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer' });
    const t = (cached ?? found)!;
    if (faults.has('revocation-cached')) acceptedTokens.set(m![1]!, t);
    const u = t.user;
    if (endpoint === 'user.profile') {
      const answer = { profile: { lastname: u.lastName, firstname: u.firstName, citizenId: u.citizenId, email: u.email, ...u.profile }, ok: true };
      profileCache.set(m![1]!, answer);
      return json(res, 200, answer);
    }
    const s = sessions.get(t.sid);
    return json(res, 200, { user: { role: u.role, email: u.email, sessionId: s?.publicId ?? t.sid }, ok: true });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const handler = url.pathname.startsWith('/svc/v1/') ? api : web;
    handler(req, res, url).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  issuer = `http://127.0.0.1:${port}`;
  return {
    webUrl: `http://127.0.0.1:${port}/sso`,
    apiUrl: `http://127.0.0.1:${port}/svc/v1`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
