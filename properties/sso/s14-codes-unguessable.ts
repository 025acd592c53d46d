import fc from 'fast-check';
import { UUID_SHAPE } from '../../model/sso/schemas.ts';
import { Disagreement, expectThat, freshToken, isUniformFailure, pickClient, pickUser, replySummary, runFcProperty, type SsoProperty } from './kit.ts';

/** Random uuid-shaped codes never redeem; issued codes and tokens never repeat and are long enough. */
export const S14: SsoProperty = {
  id: 'S14',
  title: 'Guessed uuid-shaped codes never redeem; issued codes and tokens are unique',
  severity: 'M',
  run: async (ctx, opts) => {
    const codes = new Set<string>();
    const tokens = new Set<string>();
    let shortest = Infinity;
    let nonUuidCodes = 0;
    const result = await runFcProperty(
      S14,
      opts,
      fc.record({ client: pickClient(ctx), user: pickUser(ctx), guesses: fc.array(fc.uuid({ version: 4 }), { minLength: 1, maxLength: 3 }) }),
      async ({ client, user, guesses }, counts) => {
        for (const guess of guesses) {
          const { reply } = await ctx.client.exchange({ code: guess, redirectUrl: client.redirectUrl, clientId: client.clientId, clientSecret: client.clientSecret });
          counts.add(isUniformFailure(reply) ? 'guess-refused' : 'guess-accepted');
          expectThat(isUniformFailure(reply), `a guessed code ${guess} must not redeem`, { status: 200, body: { ok: false, error: 'AUTH0001' } }, replySummary(reply));
        }
        const { code, token } = await freshToken(ctx, client, user);
        if (codes.has(code)) throw new Disagreement('the service issued the same code twice', 'a new code', code);
        if (tokens.has(token)) throw new Disagreement('the service issued the same access token twice', 'a new token', token);
        codes.add(code);
        tokens.add(token);
        shortest = Math.min(shortest, token.length);
        if (!UUID_SHAPE.test(code)) nonUuidCodes++;
        counts.add('issued');
      },
    );
    const notes = [`codes seen: ${codes.size} (${nonUuidCodes} not uuid-shaped; a UUIDv4 carries 122 random bits, below the 128 recommended)`, `shortest token: ${shortest === Infinity ? 'n/a' : shortest} chars`];
    return { ...result, note: [result.note, ...notes].filter(Boolean).join('; ') };
  },
};
