import fc from 'fast-check';
import { expectThat, freshLogin, isUniformFailure, pickClientPair, pickUser, replySummary, runFcProperty, type SsoProperty } from './kit.ts';

/** The code is bound to the client it was issued to: other or mixed credentials fail. */
export const S03: SsoProperty = {
  id: 'S03',
  title: "A code is bound to its client: another client's credentials or a swapped pair fail",
  severity: 'M',
  run: (ctx, opts) =>
    runFcProperty(
      S03,
      opts,
      fc.record({ pair: pickClientPair(ctx), user: pickUser(ctx), variant: fc.constantFrom('other-client', 'other-id-own-secret', 'own-id-other-secret', 'other-client-own-url') }),
      async ({ pair: [owner, other], user, variant }, counts) => {
        const { code } = await freshLogin(ctx, owner, user);
        const body = {
          'other-client': { code, redirectUrl: other.redirectUrl, clientId: other.clientId, clientSecret: other.clientSecret },
          'other-id-own-secret': { code, redirectUrl: owner.redirectUrl, clientId: other.clientId, clientSecret: owner.clientSecret },
          'own-id-other-secret': { code, redirectUrl: owner.redirectUrl, clientId: owner.clientId, clientSecret: other.clientSecret },
          'other-client-own-url': { code, redirectUrl: owner.redirectUrl, clientId: other.clientId, clientSecret: other.clientSecret },
        }[variant];
        const { reply } = await ctx.client.exchange(body);
        counts.add(isUniformFailure(reply) ? 'refused' : 'accepted');
        expectThat(isUniformFailure(reply), `a code of ${owner.appId} exchanged with ${variant} credentials must fail`, { status: 200, body: { ok: false, error: 'AUTH0001' } }, replySummary(reply));
      },
    ),
};
