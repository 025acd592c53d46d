import { clientForApp, queryPairsOf, redirectWithCode } from '../model/front-channel.ts';
import type { ClientRegistration } from '../model/schemas.ts';
import type { EmulatorSession } from './store.ts';
import type { EmulatorContext } from './context.ts';
import { SESSION_COOKIE, htmlReply, redirectReply, type EmulatorRequest, type Reply } from './http.ts';
import { errorPage, loginPage } from './login-page.ts';

/** The browser-facing endpoints: /login (the form, its post, silent login) and /logout. */

const FORM_LIMIT = 64 * 1024;
const sessionCookieHeader = (cookie: string) => `${SESSION_COOKIE}=${cookie}; Path=/; HttpOnly; SameSite=Lax`;

function unknownApp(): Reply {
  return htmlReply(400, errorPage('Unknown application', 'The app parameter does not name a registered application.'));
}

/** GET shows the form (or logs in silently), POST checks the credentials; both end in a redirect with a code. */
export async function loginRoute(ctx: EmulatorContext, req: EmulatorRequest): Promise<Reply | null> {
  if (req.method !== 'GET' && req.method !== 'POST') return null;
  const { config, settings, store } = ctx;
  const client = clientForApp(config.clients, queryPairsOf(req.url.search));
  const formBody = req.method === 'POST' ? ((await req.readBody(FORM_LIMIT)) ?? '') : ''; // drain before answering
  if (!client) return unknownApp();
  const formPage = (status: number, error?: string) =>
    htmlReply(status, loginPage({ client, search: req.url.search, users: config.users, presetUsers: ctx.presetUsers, ...(error === undefined ? {} : { error }) }));
  let session = store.liveSession(req.sessionCookie);
  let setCookie: string | undefined;
  if (req.method === 'POST') {
    // Login CSRF: a browser sends Origin on a cross-site POST; only the service's own page may post here.
    // `null` carries no site (a no-referrer page's own form posts send it), so only a named other site is refused.
    if (req.origin !== undefined && req.origin !== 'null' && req.origin !== `http://${req.host}`) {
      return htmlReply(403, errorPage('Forbidden', 'The login form was posted from another site.'));
    }
    const form = new URLSearchParams(formBody);
    const user = store.checkPassword(form.get('username') ?? '', form.get('password') ?? '');
    if (!user) return formPage(401, 'Wrong username or password.');
    session = store.openSession(user.username);
    setCookie = sessionCookieHeader(session.cookie);
  } else if (!session || !settings.silentLoginWithSession) {
    if (ctx.autoLogin === undefined) return formPage(200);
    session = store.openSession(ctx.autoLogin);
    setCookie = sessionCookieHeader(session.cookie);
  }
  return codeRedirect(ctx, req, client, session, setCookie);
}

function codeRedirect(ctx: EmulatorContext, req: EmulatorRequest, client: ClientRegistration, session: EmulatorSession, setCookie: string | undefined): Reply {
  const code = ctx.store.issueCode(session, client);
  req.log.note(`code issued to ${client.appId} for ${session.username}`);
  const r = redirectReply(ctx.settings.loginRedirectStatus, redirectWithCode(client.redirectUrl, code), setCookie);
  return { ...r, issued: { code, sessionCookie: session.cookie } };
}

/** Ends the browser session and sends the browser to the app's registered logout URL. */
export async function logoutRoute(ctx: EmulatorContext, req: EmulatorRequest): Promise<Reply | null> {
  if (req.method !== 'GET') return null;
  const client = clientForApp(ctx.config.clients, queryPairsOf(req.url.search));
  if (!client) return unknownApp();
  ctx.store.endSession(req.sessionCookie);
  return redirectReply(ctx.settings.logoutRedirectStatus, client.logoutUrl, `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`);
}
