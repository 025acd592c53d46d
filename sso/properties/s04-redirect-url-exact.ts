import fc from 'fast-check';
import { redirectUrlNearMiss, redirectUrlNearMisses } from './generators.ts';
import { expectThat, freshLogin, isUniformFailure, pickClient, pickUser, replySummary, runFcProperty, type SsoProperty } from './kit.ts';

/** auth.token's redirectUrl must equal the registered one as a string; near-misses fail. */
export const S04: SsoProperty = {
  id: 'S04',
  title: 'auth.token requires the exact registered Redirect URL (generated near-misses fail)',
  severity: 'M',
  run: (ctx, opts) => {
    const othersOf = (client: (typeof ctx.config.clients)[number]) => ctx.config.clients.filter((c) => c !== client);
    // Every near-miss variant runs in every run: one case each, on a client drawn from the seed.
    const lists = ctx.config.clients.map((c) => redirectUrlNearMisses(c, othersOf(c)));
    const names = [...new Set(lists.flatMap((l) => l.map((v) => v.variant.split(':')[0]!)))];
    const examples = names.map((name, i) => {
      const n = ctx.config.clients.length;
      const j = [...Array(n).keys()].map((k) => (k + opts.seed + i) % n).map((k) => (k + n) % n).find((k) => lists[k]!.some((v) => v.variant.split(':')[0] === name))!;
      return { client: ctx.config.clients[j]!, user: ctx.config.users[i % ctx.config.users.length]!, nearMiss: lists[j]!.find((v) => v.variant.split(':')[0] === name)! };
    });
    return runFcProperty(
      S04,
      opts,
      fc.tuple(pickClient(ctx), pickUser(ctx)).chain(([client, user]) => fc.record({ client: fc.constant(client), user: fc.constant(user), nearMiss: redirectUrlNearMiss(client, othersOf(client)) })),
      async ({ client, user, nearMiss }, counts) => {
        const { code } = await freshLogin(ctx, client, user);
        const { reply } = await ctx.client.exchange({ code, redirectUrl: nearMiss.url, clientId: client.clientId, clientSecret: client.clientSecret });
        counts.add(`${nearMiss.variant.split(':')[0]}:${isUniformFailure(reply) ? 'refused' : 'accepted'}`);
        expectThat(isUniformFailure(reply), `redirectUrl near-miss (${nearMiss.variant}) ${JSON.stringify(nearMiss.url)} must fail`, { status: 200, body: { ok: false, error: 'AUTH0001' } }, replySummary(reply));
      },
      { examples },
    );
  },
};
