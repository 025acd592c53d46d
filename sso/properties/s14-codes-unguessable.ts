import fc from 'fast-check';
import { UUID_SHAPE } from '../model/schemas.ts';
import { bodyOf, parseTokenResponse } from '../client/client.ts';
import { Disagreement, expectThat, freshToken, isUniformFailure, pickClient, pickUser, runFcProperty, type SsoProperty } from './kit.ts';

/**
 * Bits in which two hex codes of one length differ (dashes ignored), or null when they are not
 * both hex of one length. Two random 122-bit UUIDv4s differ in 61 ± 5.5 bits.
 */
export function hexBitDistance(a: string, b: string): number | null {
  const x = a.replace(/-/g, '');
  const y = b.replace(/-/g, '');
  if (x.length !== y.length || !/^[0-9a-f]+$/i.test(x) || !/^[0-9a-f]+$/i.test(y)) return null;
  let d = 0;
  for (let i = 0; i < x.length; i++) for (let v = parseInt(x[i]!, 16) ^ parseInt(y[i]!, 16); v; v >>= 1) d += v & 1;
  return d;
}

/**
 * Fewest differing bits two issued hex codes of `hexDigits` may show: an eighth of their bits
 * (16 of a UUID's 128). Random codes fall this low with odds below 1e-13 per pair; counters,
 * clocks and derived codes differ in a handful of bits.
 */
export const minBitDistance = (hexDigits: number): number => Math.floor((hexDigits * 4) / 8);

/** Random uuid-shaped codes never redeem; issued codes and tokens never repeat, nor lie close to each other. */
export const S14: SsoProperty = {
  id: 'S14',
  title: 'Guessed uuid-shaped codes never redeem; issued codes and tokens are unique and not close to each other',
  severity: 'M',
  needsTokenResult: true,
  run: async (ctx, opts) => {
    const codes = new Set<string>();
    const tokens = new Set<string>();
    let shortest = Infinity;
    let nonUuidCodes = 0;
    let closest = Infinity;
    let issued = 0;
    const result = await runFcProperty(
      S14,
      opts,
      fc.record({ client: pickClient(ctx), user: pickUser(ctx), guesses: fc.array(fc.uuid({ version: 4 }), { minLength: 1, maxLength: 3 }) }),
      async ({ client, user, guesses }, counts) => {
        for (const guess of guesses) {
          const { reply } = await ctx.client.exchange({ code: guess, redirectUrl: client.redirectUrl, clientId: client.clientId, clientSecret: client.clientSecret });
          const redeemed = parseTokenResponse(reply)?.ok === true;
          counts.add(isUniformFailure(reply) ? 'guess-refused' : redeemed ? 'guess-redeemed' : 'guess-other-answer');
          // Say what happened: a redeemed guess is a different finding from a refusal worded differently.
          expectThat(
            isUniformFailure(reply),
            redeemed ? `a guessed code ${guess} redeemed: it must not` : `a guessed code ${guess} was refused, but not with the uniform failure 200 {ok:false,error:"AUTH0001"}`,
            { status: 200, body: { ok: false, error: 'AUTH0001' } },
            { status: reply.status, body: bodyOf(reply) },
          );
        }
        const { code, token } = await freshToken(ctx, client, user);
        // Counted before it is judged: the figures of the note include the values of a finding.
        issued++;
        shortest = Math.min(shortest, token.length);
        if (!UUID_SHAPE.test(code)) nonUuidCodes++;
        if (codes.has(code)) throw new Disagreement('the service issued the same code twice', 'a new code', code);
        for (const earlier of codes) {
          const d = hexBitDistance(earlier, code);
          const digits = code.replace(/-/g, '').length;
          // Only codes of 64 bits or more: shorter ones are weak anyway, and closeness is then chance.
          if (d === null || digits < 16) continue;
          closest = Math.min(closest, d);
          if (d < minBitDistance(digits)) {
            throw new Disagreement(`issued codes are predictable: two codes differ in only ${d} of ${digits * 4} bits`, `codes that differ in at least ${minBitDistance(digits)} bits`, { earlier, code, bitsDiffering: d });
          }
        }
        if (tokens.has(token)) throw new Disagreement('the service issued the same access token twice', 'a new token', token);
        codes.add(code);
        tokens.add(token);
        counts.add('issued');
      },
      // Uniqueness and closeness rest on the codes earlier cases saw: the first finding, unshrunk.
      { shrink: false },
    );
    const notes = [`codes issued: ${issued} (${nonUuidCodes} not uuid-shaped; a UUIDv4 carries 122 random bits, below the 128 recommended)`, `shortest token: ${shortest === Infinity ? 'n/a' : shortest} chars`, `closest two codes: ${closest === Infinity ? 'n/a' : `${closest} bit${closest === 1 ? '' : 's'} apart`}`];
    return { ...result, note: [result.note, ...notes].filter(Boolean).join('; ') };
  },
};
