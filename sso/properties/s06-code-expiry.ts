import fc from 'fast-check';
import { expectThat, freshLogin, goodTokenRequest, isUniformFailure, notApplicable, pickClient, pickUser, replySummary, runFcProperty, type SsoProperty } from './kit.ts';

/** A code past its lifetime fails (and the lifetime is at most 10 minutes). Needs a movable clock. */
export const S06: SsoProperty = {
  id: 'S06',
  title: 'A code past its lifetime (setting codeLifetimeSeconds, at most 10 min) fails',
  severity: 'M',
  run: async (ctx, opts) => {
    if (!ctx.control) return notApplicable(S06, opts.seed, 'the target has no control API, so time cannot be advanced');
    const lifetimeMs = Math.min(ctx.config.settings.codeLifetimeSeconds, 600) * 1000;
    return runFcProperty(
      S06,
      opts,
      fc.record({ client: pickClient(ctx), user: pickUser(ctx), extraMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 10 * 60_000 })) }),
      async ({ client, user, extraMs }, counts) => {
        const { code } = await freshLogin(ctx, client, user);
        await ctx.client.advanceClock(lifetimeMs + extraMs);
        const { reply } = await ctx.client.exchange(goodTokenRequest(client, code));
        counts.add(isUniformFailure(reply) ? 'expired-refused' : 'expired-accepted');
        expectThat(isUniformFailure(reply), `a code ${lifetimeMs + extraMs} ms old (lifetime ${lifetimeMs} ms) must fail`, { status: 200, body: { ok: false, error: 'AUTH0001' } }, replySummary(reply));
      },
    );
  },
};
