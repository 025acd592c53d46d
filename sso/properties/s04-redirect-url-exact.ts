import fc from 'fast-check';
import { redirectUrlNearMiss, redirectUrlNearMisses } from './generators.ts';
import { expectThat, freshLogin, isUniformFailure, pickClient, pickUser, replySummary, runFcProperty, type SsoProperty } from './kit.ts';

/**
 * auth.token's redirectUrl must equal, as a string, the registered one the code was sent to:
 * near-misses fail, and so does another Redirect URL registered for the same client.
 */
export const S04: SsoProperty = {
  id: 'S04',
  title: 'auth.token requires the exact Redirect URL the code was sent to (near-misses and the client\'s other registered URLs fail)',
  severity: 'M',
  run: (ctx, opts) =>
    runFcProperty(
      S04,
      opts,
      fc.tuple(pickClient(ctx), pickUser(ctx)).chain(([client, user]) =>
        fc.record({ client: fc.constant(client), user: fc.constant(user), nearMiss: redirectUrlNearMiss(client, ctx.config.clients.filter((c) => c !== client)) }),
      ),
      async ({ client, user, nearMiss }, counts) => {
        const { code } = await freshLogin(ctx, client, user);
        const { reply } = await ctx.client.exchange({ code, redirectUrl: nearMiss.url, clientId: client.clientId, clientSecret: client.clientSecret });
        counts.add(`${nearMiss.variant.split(':')[0]}:${isUniformFailure(reply) ? 'refused' : 'accepted'}`);
        counts.add(`variant ${nearMiss.variant}`);
        expectThat(isUniformFailure(reply), `redirectUrl near-miss (${nearMiss.variant}) ${JSON.stringify(nearMiss.url)} must fail`, { status: 200, body: { ok: false, error: 'AUTH0001' } }, replySummary(reply));
      },
      {
        // Every near-miss of every client once, whatever the seed and runs.
        examples: ctx.config.clients.flatMap((client, i) =>
          redirectUrlNearMisses(client, ctx.config.clients.filter((c) => c !== client)).map((nearMiss) => ({ client, user: ctx.config.users[i % ctx.config.users.length]!, nearMiss })),
        ),
      },
    ),
};
