import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { bearerTokenOf } from '../model/bearer.ts';
import { clientForApp, queryPairsOf, redirectWithCode } from '../model/front-channel.ts';
import { TOKEN_FAILURE, TokenRequestSchema, profileOf, tokenResultOf } from '../model/schemas.ts';
import { parseStrictJson } from '../model/strict-json.ts';
import type { SsoConfig } from '../config.ts';
import type { SsoFault } from './faults.ts';
import { errorPage, loginPage } from './login-page.ts';
import { RequestLog, maskedQuery, maskedTokenBody, type LogHandle } from './request-log.ts';
import { EmulatorStore } from './store.ts';

export interface EmulatorOptions {
  config: SsoConfig;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Deliberate defects, added to `config.faults` (tests of the properties only). */
  faults?: readonly SsoFault[];
  /** Username logged in without a form when a browser without a session opens /login (for CI). */
  autoLogin?: string;
  /** Show one-click buttons for the configured users on the login page (default true). */
  presetUsers?: boolean;
  /** Serve the control API under `{apiUrl}/__control/` (default true). */
  control?: boolean;
}

export interface RunningEmulator {
  /** `{sso_web_url}`: /login and /logout. */
  webUrl: string;
  /** `{sso_api_url}`: /auth.token, /user.profile, /auth.status (and /__control/). */
  apiUrl: string;
  port: number;
  close(): Promise<void>;
}

const SESSION_COOKIE = 'pf_sso_session';
const API_PREFIX = '/api';

const SECURITY_HEADERS: Record<string, string> = {
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "frame-ancestors 'none'; default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  Pragma: 'no-cache',
};

const InjectionSchema = z.strictObject({
  endpoint: z.enum(['login', 'logout', 'auth.token', 'user.profile', 'auth.status']),
  kind: z.enum(['slow', 'malformed', 'status']),
  delayMs: z.number().int().min(0).max(30_000).default(2000),
  status: z.number().int().min(100).max(599).default(503),
  times: z.number().int().min(1).max(1000).default(1),
});
type Injection = z.infer<typeof InjectionSchema>;

export async function startEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  const { config } = options;
  const faults = new Set<SsoFault>([...config.faults, ...(options.faults ?? [])]);
  if (options.autoLogin !== undefined && !config.users.some((u) => u.username === options.autoLogin)) {
    throw new Error(`--auto-login: no user named ${JSON.stringify(options.autoLogin)} in the config (users: ${config.users.map((u) => u.username).join(', ')})`);
  }
  const store = new EmulatorStore(config.clients, config.users, config.settings, faults);
  const log = new RequestLog();
  let injections: Injection[] = [];
  const control = options.control ?? true;

  const takeInjection = (endpoint: Injection['endpoint']): Injection | null => {
    const i = injections.find((x) => x.endpoint === endpoint);
    if (!i) return null;
    i.times -= 1;
    if (i.times <= 0) injections = injections.filter((x) => x !== i);
    return i;
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    // Control calls are the tester talking to the emulator, not traffic: they stay out of the log.
    const entry = url.pathname.startsWith(`${API_PREFIX}/__control/`) ? RequestLog.ignored : log.start(req.method ?? '?', url.pathname, maskedQuery(url.search), store.now());
    res.on('finish', () => entry.finish(res.statusCode));
    handle(req, res, url, entry).catch((err: unknown) => {
      // Never a 5xx: an unexpected error still gets the answer the endpoint promises.
      entry.note(`internal error: ${String(err)}`);
      if (res.headersSent) return res.end();
      if (url.pathname === `${API_PREFIX}/auth.token`) return sendJson(res, 200, TOKEN_FAILURE);
      if (url.pathname.startsWith(API_PREFIX)) return sendUnauthorized(res);
      sendHtml(res, 400, errorPage('Bad request', 'The request could not be handled.'));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL, entry: LogHandle): Promise<void> {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    const path = url.pathname;
    const method = req.method ?? 'GET';

    if (path === '/login' || path === '/logout') {
      const injected = takeInjection(path === '/login' ? 'login' : 'logout');
      if (injected && (await applyInjection(injected, res))) return;
    }

    if (path === '/login' && (method === 'GET' || method === 'POST')) {
      const query = queryPairsOf(url.search);
      const client = clientForApp(config.clients, query);
      const formBody = method === 'POST' ? ((await readBody(req, 64 * 1024)) ?? '') : ''; // drain before answering
      if (!client) return sendHtml(res, 400, errorPage('Unknown application', 'The app parameter does not name a registered application.'));
      let session = store.liveSession(cookieOf(req));
      if (method === 'POST') {
        // Login CSRF: a browser sends Origin on a cross-site POST; only the service's own page may post here.
        const origin = req.headers['origin'];
        // `null` carries no site (a no-referrer page's own form posts send it), so only a named other site is refused.
        if (origin !== undefined && origin !== 'null' && origin !== `http://${req.headers['host'] ?? ''}` && !faults.has('login-accepts-cross-site-post')) {
          return sendHtml(res, 403, errorPage('Forbidden', 'The login form was posted from another site.'));
        }
        const form = new URLSearchParams(formBody);
        const user = store.checkPassword(form.get('username') ?? '', form.get('password') ?? '');
        if (!user) {
          return sendLoginPage(res, 401, loginPage({ client, search: url.search, users: config.users, presetUsers: options.presetUsers ?? true, error: 'Wrong username or password.' }));
        }
        session = store.openSession(user.username);
        res.setHeader('Set-Cookie', `${SESSION_COOKIE}=${session.cookie}; Path=/; HttpOnly; SameSite=Lax`);
      } else if (!session || !config.settings.silentLoginWithSession) {
        if (options.autoLogin === undefined) {
          return sendLoginPage(res, 200, loginPage({ client, search: url.search, users: config.users, presetUsers: options.presetUsers ?? true }));
        }
        session = store.openSession(options.autoLogin);
        res.setHeader('Set-Cookie', `${SESSION_COOKIE}=${session.cookie}; Path=/; HttpOnly; SameSite=Lax`);
      }
      const code = store.issueCode(session, client);
      entry.note(`code issued to ${client.appId} for ${session.username}`);
      const target = faults.has('login-follows-redirect-uri') ? (url.searchParams.get('redirect_uri') ?? client.redirectUrl) : client.redirectUrl;
      let location = redirectWithCode(target, code);
      if (faults.has('token-in-front-channel') && method === 'GET') {
        const cookie = session.cookie;
        const latest = [...store.tokens].filter(([, t]) => t.cookie === cookie).pop();
        if (latest) location += `#access_token=${latest[0]}`;
      }
      return redirect(res, faults.has('login-redirect-307') ? 307 : config.settings.loginRedirectStatus, location);
    }

    if (path === '/logout' && method === 'GET') {
      const query = queryPairsOf(url.search);
      const client = clientForApp(config.clients, query);
      if (!client) return sendHtml(res, 400, errorPage('Unknown application', 'The app parameter does not name a registered application.'));
      store.endSession(cookieOf(req));
      res.setHeader('Set-Cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`);
      const follow = faults.has('logout-follows-redirect-param') ? url.searchParams.get('redirect') : null;
      return redirect(res, config.settings.logoutRedirectStatus, follow ?? client.logoutUrl);
    }

    if (path === `${API_PREFIX}/auth.token`) {
      const injected = takeInjection('auth.token');
      if (injected && (await applyInjection(injected, res))) return;
      const limit = config.settings.maxTokenBodyBytes;
      const body = await readBody(req, limit);
      entry.setBody(body === null ? `<over ${limit} bytes>` : maskedTokenBody(body));
      if (method !== 'POST' || body === null) return sendJson(res, 200, TOKEN_FAILURE);
      const ct = req.headers['content-type'];
      if (!ct || !/^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i.test(ct.trim())) return sendJson(res, 200, TOKEN_FAILURE);
      const parsed = parseStrictJson(body);
      if (!parsed.ok) {
        if (faults.has('malformed-json-500')) return sendJson(res, 500, { error: `SyntaxError: ${parsed.reason}` });
        return sendJson(res, 200, TOKEN_FAILURE);
      }
      const request = TokenRequestSchema.safeParse(parsed.value);
      if (!request.success) return sendJson(res, 200, TOKEN_FAILURE);
      const result = store.redeem(request.data);
      if (!result) return sendJson(res, 200, TOKEN_FAILURE);
      return sendJson(res, 200, tokenResultOf(result.user, result.token));
    }

    if (path === `${API_PREFIX}/user.profile` || path === `${API_PREFIX}/auth.status`) {
      const which = path === `${API_PREFIX}/user.profile` ? 'user.profile' : 'auth.status';
      const injected = takeInjection(which);
      if (injected && (await applyInjection(injected, res))) return;
      await readBody(req, 64 * 1024);
      if (method !== 'POST') {
        res.setHeader('Allow', 'POST');
        return sendJson(res, 405, { ok: false });
      }
      const authorization = req.headersDistinct.authorization ?? [];
      const inQuery = faults.has('token-in-query-accepted') && authorization.length === 0 ? url.searchParams.get('access_token') : null;
      const accepted = store.acceptedToken(inQuery ?? bearerTokenOf(authorization));
      if (!accepted) return sendUnauthorized(res);
      if (which === 'user.profile' && faults.has('profile-camelcase')) {
        const { firstname, lastname, ...rest } = profileOf(accepted.user);
        return sendJson(res, 200, { ok: true, profile: { ...rest, firstName: firstname, lastName: lastname } });
      }
      if (which === 'user.profile') return sendJson(res, 200, { ok: true, profile: profileOf(accepted.user) });
      return sendJson(res, 200, { ok: true, user: { sessionId: accepted.session.sessionId, email: accepted.user.email, role: accepted.user.role } });
    }

    if (control && path.startsWith(`${API_PREFIX}/__control/`)) return handleControl(req, res, path.slice(`${API_PREFIX}/__control/`.length), method);

    return sendHtml(res, 404, errorPage('Not found', 'No such page.'));
  }

  /** The login form itself (200, or 401 after wrong credentials). */
  function sendLoginPage(res: ServerResponse, status: number, html: string): void {
    if (faults.has('no-frame-protection')) {
      res.removeHeader('X-Frame-Options');
      res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'");
    }
    sendHtml(res, status, html);
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

  async function handleControl(req: IncomingMessage, res: ServerResponse, op: string, method: string): Promise<void> {
    const raw = (await readBody(req, 64 * 1024)) ?? '';
    const json = (): unknown => (raw.trim() === '' ? {} : JSON.parse(raw));
    try {
      if (op === 'health' && method === 'GET') return sendJson(res, 200, { ok: true, emulator: 'policyfuzz-sso', nowMs: store.now(), settings: config.settings });
      if (op === 'clock' && method === 'POST') {
        const { advanceMs } = z.strictObject({ advanceMs: z.number().int().min(0) }).parse(json());
        store.advanceClock(advanceMs);
        return sendJson(res, 200, { ok: true, nowMs: store.now() });
      }
      if (op === 'reset' && method === 'POST') {
        store.reset();
        log.clear();
        injections = [];
        return sendJson(res, 200, { ok: true });
      }
      if (op === 'inject' && method === 'POST') {
        injections.push(InjectionSchema.parse(json()));
        return sendJson(res, 200, { ok: true, queued: injections.length });
      }
      if (op === 'log' && method === 'GET') return sendJson(res, 200, { ok: true, entries: log.entries() });
      return sendJson(res, 404, { ok: false, error: `unknown control operation ${method} ${op}` });
    } catch (e) {
      const message = e instanceof z.ZodError ? e.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ') : String(e);
      return sendJson(res, 400, { ok: false, error: message });
    }
  }

  async function applyInjection(i: Injection, res: ServerResponse): Promise<boolean> {
    if (i.kind === 'slow') {
      await new Promise((r) => setTimeout(r, i.delayMs));
      return false;
    }
    if (i.kind === 'malformed') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":tru');
      return true;
    }
    res.writeHead(i.status, { 'Content-Type': 'text/plain' }).end(`injected status ${i.status}`);
    return true;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    webUrl: origin,
    apiUrl: `${origin}${API_PREFIX}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function cookieOf(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === SESSION_COOKIE) return v.join('=');
  }
  return undefined;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}
function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
}
function sendUnauthorized(res: ServerResponse): void {
  res.writeHead(401, { 'WWW-Authenticate': 'Bearer', 'Content-Type': 'text/plain' }).end('Unauthorized');
}
function redirect(res: ServerResponse, status: number, location: string): void {
  res.writeHead(status, { Location: location }).end();
}
