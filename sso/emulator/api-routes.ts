import { bearerTokenOf } from '../model/bearer.ts';
import { TOKEN_FAILURE, TokenRequestSchema, profileOf, tokenResultOf } from '../model/schemas.ts';
import { parseStrictJson } from '../model/strict-json.ts';
import type { EmulatorContext } from './context.ts';
import { jsonReply, unauthorizedReply, type EmulatorRequest, type Reply, type TokenRefusal } from './http.ts';
import { maskedTokenBody } from './request-log.ts';

/** The back-channel endpoints: auth.token, and the two bearer endpoints user.profile and auth.status. */

const JSON_CONTENT_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** The uniform failure, whatever went wrong (the refusal stays inside the emulator). */
function tokenFailure(step: TokenRefusal['step'], detail?: string): Reply {
  return { ...jsonReply(200, TOKEN_FAILURE), refusal: { step, ...(detail === undefined ? {} : { detail }) } };
}

/** Exchanges a code: strict JSON of the right shape, then the store's exchange rules. */
export async function tokenRoute(ctx: EmulatorContext, req: EmulatorRequest): Promise<Reply> {
  const limit = ctx.settings.maxTokenBodyBytes;
  const body = await req.readBody(limit);
  req.log.setBody(body === null ? `<over ${limit} bytes>` : maskedTokenBody(body));
  if (req.method !== 'POST') return tokenFailure('method');
  if (body === null) return tokenFailure('too-large');
  const ct = req.contentType;
  if (!ct || !JSON_CONTENT_TYPE.test(ct.trim())) return tokenFailure('content-type');
  const parsed = parseStrictJson(body);
  if (!parsed.ok) return tokenFailure('malformed-json', parsed.reason);
  const request = TokenRequestSchema.safeParse(parsed.value);
  if (!request.success) return tokenFailure('schema');
  const result = ctx.store.redeem(request.data);
  if (!result) return tokenFailure('exchange');
  return jsonReply(200, tokenResultOf(result.user, result.token));
}

/** user.profile and auth.status: POST with exactly one `Authorization: Bearer` line. */
export async function bearerRoute(ctx: EmulatorContext, req: EmulatorRequest, which: 'user.profile' | 'auth.status'): Promise<Reply> {
  await req.readBody(64 * 1024);
  if (req.method !== 'POST') return jsonReply(405, { ok: false }, { Allow: 'POST' });
  const accepted = ctx.store.acceptedToken(bearerTokenOf(req.authorization));
  if (!accepted) return unauthorizedReply();
  if (which === 'user.profile') return jsonReply(200, { ok: true, profile: profileOf(accepted.user) });
  return jsonReply(200, { ok: true, user: { sessionId: accepted.session.sessionId, email: accepted.user.email, role: accepted.user.role } });
}
