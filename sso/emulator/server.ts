import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TOKEN_FAILURE } from '../model/schemas.ts';
import type { SsoConfig } from '../config.ts';
import { bearerRoute, tokenRoute } from './api-routes.ts';
import type { EmulatorContext } from './context.ts';
import { Injections, controlRoute } from './control.ts';
import { faultLayersOf, type SsoFault } from './faults/index.ts';
import { API_PREFIX, emulatorRequestOf, endpointOf, htmlReply, jsonReply, unauthorizedReply, wrap, writeReply, type EmulatorRequest, type Reply } from './http.ts';
import { errorPage } from './login-page.ts';
import { RequestLog, maskedQuery } from './request-log.ts';
import { EmulatorStore } from './store.ts';
import { loginRoute, logoutRoute } from './web-routes.ts';

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

/**
 * Starts the emulator: one correct service, with the configured faults (faults/) wrapped around
 * it as store rules, settings it acts on and middleware, and the control API's injections
 * outermost.
 */
export async function startEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  const { config } = options;
  if (options.autoLogin !== undefined && !config.users.some((u) => u.username === options.autoLogin)) {
    throw new Error(`--auto-login: no user named ${JSON.stringify(options.autoLogin)} in the config (users: ${config.users.map((u) => u.username).join(', ')})`);
  }
  const faults = faultLayersOf([...config.faults, ...(options.faults ?? [])]);
  const settings = { ...config.settings, ...faults.actsAsIf };
  const store = new EmulatorStore(config.clients, config.users, settings, faults.storeRules);
  const ctx: EmulatorContext = { config, settings, store, presetUsers: options.presetUsers ?? true, autoLogin: options.autoLogin };
  const log = new RequestLog();
  const injections = new Injections();
  const route = async (req: EmulatorRequest): Promise<Reply> => {
    if (req.endpoint === 'control') return controlRoute(ctx, req, log, injections);
    return (await endpointRoute(ctx, req)) ?? htmlReply(404, errorPage('Not found', 'No such page.'));
  };
  const handle = wrap(route, [...faults.middleware.map((m) => m({ store })), injections.middleware]);

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    const endpoint = endpointOf(url.pathname, options.control ?? true);
    // Control calls are the tester talking to the emulator, not traffic: they stay out of the log.
    const entry = url.pathname.startsWith(`${API_PREFIX}/__control/`) ? RequestLog.ignored : log.start(req.method ?? '?', url.pathname, maskedQuery(url.search), store.now());
    res.on('finish', () => entry.finish(res.statusCode));
    void handle(emulatorRequestOf(req, url, endpoint, entry))
      .then((reply) => writeReply(res, reply))
      .catch((err: unknown) => {
        // Never a 5xx: an unexpected error still gets the answer the endpoint promises.
        entry.note(`internal error: ${String(err)}`);
        if (res.headersSent) return res.end();
        writeReply(res, fallbackReply(url.pathname));
      });
  });

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

function fallbackReply(path: string): Reply {
  if (path === `${API_PREFIX}/auth.token`) return jsonReply(200, TOKEN_FAILURE);
  if (path.startsWith(API_PREFIX)) return unauthorizedReply();
  return htmlReply(400, errorPage('Bad request', 'The request could not be handled.'));
}

/** The reply of a service endpoint, or null when the endpoint does not take this method. */
function endpointRoute(ctx: EmulatorContext, req: EmulatorRequest): Promise<Reply | null> {
  switch (req.endpoint) {
    case 'login': return loginRoute(ctx, req);
    case 'logout': return logoutRoute(ctx, req);
    case 'auth.token': return tokenRoute(ctx, req);
    case 'user.profile':
    case 'auth.status': return bearerRoute(ctx, req, req.endpoint);
    default: return Promise.resolve(null);
  }
}
