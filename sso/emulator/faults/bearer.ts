import { rewritingReply, rewritingRequest, type Fault } from './fault.ts';

/** Faults of the bearer endpoints user.profile and auth.status. */

/** user.profile answers `firstName`/`lastName` (the token's spelling) instead of `firstname`/`lastname`. */
export const profileCamelcase: Fault = rewritingReply(['user.profile'], (reply) => {
  if (reply.status !== 200 || reply.body === undefined) return reply;
  const { profile } = JSON.parse(reply.body) as { profile: Record<string, unknown> };
  const { firstname, lastname, ...rest } = profile;
  return { ...reply, body: JSON.stringify({ ok: true, profile: { ...rest, firstName: firstname, lastName: lastname } }) };
});

/** user.profile and auth.status accept the token as an `access_token` query parameter (RFC 6750 §2.3). */
export const tokenInQueryAccepted: Fault = rewritingRequest(['user.profile', 'auth.status'], (req) => {
  const inQuery = req.url.searchParams.get('access_token');
  return req.authorization.length === 0 && inQuery !== null ? { ...req, authorization: [`Bearer ${inQuery}`] } : req;
});
