import { redirectWithCode } from '../../model/front-channel.ts';
import { isRedirect } from '../http.ts';
import { rewritingReply, rewritingRequest, type Fault } from './fault.ts';

/** Faults of /login: where the code goes, how the browser is sent there, and the form's own protection. */

/** The post-login redirect uses 307, which makes the browser re-post the credentials to the client. */
export const loginRedirect307: Fault = rewritingReply(['login'], (reply) => (reply.issued ? { ...reply, status: 307 } : reply));

/** /login sends the code to a `redirect_uri` query parameter when one is given. */
export const loginFollowsRedirectUri: Fault = rewritingReply(['login'], (reply, req) => {
  const target = req.url.searchParams.get('redirect_uri');
  if (!reply.issued || target === null) return reply;
  return { ...reply, headers: { ...reply.headers, Location: redirectWithCode(target, reply.issued.code) } };
});

/** A silent login (browser with a session) also puts the session's latest access token in the redirect's fragment. */
export const tokenInFrontChannel: Fault = rewritingReply(['login'], (reply, req, { store }) => {
  if (!reply.issued || req.method !== 'GET') return reply;
  const cookie = reply.issued.sessionCookie;
  const latest = [...store.tokens].filter(([, t]) => t.cookie === cookie).pop();
  if (!latest) return reply;
  return { ...reply, headers: { ...reply.headers, Location: `${reply.headers['Location']}#access_token=${latest[0]}` } };
});

/** The login page sends its own CSP without frame-ancestors and drops X-Frame-Options. */
export const noFrameProtection: Fault = rewritingReply(['login'], (reply) => {
  const isForm = (reply.status === 200 || reply.status === 401) && !isRedirect(reply) && reply.headers['Content-Type']?.startsWith('text/html');
  if (!isForm) return reply;
  const { 'X-Frame-Options': _dropped, ...headers } = reply.headers;
  return { ...reply, headers: { ...headers, 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'" } };
});

/** POST /login accepts a form posted from another site (no Origin check): login CSRF. */
export const loginAcceptsCrossSitePost: Fault = rewritingRequest(['login'], (req) => ({ ...req, origin: undefined }));
