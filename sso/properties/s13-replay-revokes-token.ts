import fc from 'fast-check';
import { expectThat, freshToken, goodTokenRequest, notApplicable, pickClient, pickUser, replySummary, runFcProperty, type SsoProperty } from './kit.ts';

/** After a replayed exchange, the token first issued from that code stops working (RFC 6749 §4.1.2 SHOULD). */
export const S13: SsoProperty = {
  id: 'S13',
  title: 'Replaying a redeemed code revokes the token it produced (setting replayRevokesToken)',
  severity: 'S',
  needsTokenResult: true,
  run: async (ctx, opts) => {
    if (!ctx.config.settings.replayRevokesToken) return notApplicable(S13, opts.seed, 'setting replayRevokesToken is false for this target');
    return runFcProperty(
      S13,
      opts,
      fc.record({ client: pickClient(ctx), user: pickUser(ctx), endpoint: fc.constantFrom('user.profile', 'auth.status') }),
      async ({ client, user, endpoint }, counts) => {
        const { code, token } = await freshToken(ctx, client, user);
        const call = (t: string) => (endpoint === 'user.profile' ? ctx.client.profile([`Bearer ${t}`]) : ctx.client.status([`Bearer ${t}`]));
        const before = await call(token);
        expectThat(before.status === 200, `a fresh token must work on ${endpoint}`, { status: 200 }, replySummary(before));
        await ctx.client.exchange(goodTokenRequest(client, code));
        const after = await call(token);
        counts.add(`after-replay:${after.status}`);
        expectThat(after.status === 401, `after the code was replayed, its token must get 401 on ${endpoint}`, { status: 401 }, replySummary(after));
      },
    );
  },
};
