import { isRedirect } from '../http.ts';
import { rewritingReply, type Fault } from './fault.ts';

/** Faults of /logout. */

/** /logout sends the browser to a `redirect` query parameter when one is given. */
export const logoutFollowsRedirectParam: Fault = rewritingReply(['logout'], (reply, req) => {
  const target = req.url.searchParams.get('redirect');
  return isRedirect(reply) && target !== null ? { ...reply, headers: { ...reply.headers, Location: target } } : reply;
});

/** Tokens keep working after their session logged out. */
export const tokenSurvivesLogout: Fault = { actsAsIf: { logoutRevokesTokens: false } };
