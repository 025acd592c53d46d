import fc from 'fast-check';
import type { ClientRegistration } from '../model/schemas.ts';
import { secretNearMisses } from './generators.ts';
import { expectThat, freshLogin, isUniformFailure, pickClient, pickUser, replySummary, runFcProperty, type PropertyContext, type SsoProperty } from './kit.ts';

type Change = { variant: string; field: 'clientSecret' | 'clientId'; value: string | undefined };

/** Every way the exchange can fail to authenticate `client`, one arbitrary per variant (those that can differ from it). */
function changesFor(ctx: PropertyContext, client: ClientRegistration): fc.Arbitrary<Change>[] {
  const ids = ctx.config.clients.map((c) => c.clientId);
  const flipped = client.clientId === client.clientId.toUpperCase() ? client.clientId.toLowerCase() : client.clientId.toUpperCase();
  return [
    ...secretNearMisses(client.clientSecret).map((a) => a.map((s): Change => ({ variant: `secret:${s.variant}`, field: 'clientSecret', value: s.secret }))),
    fc.constant<Change>({ variant: 'secret:missing', field: 'clientSecret', value: undefined }),
    fc.string({ minLength: 1, maxLength: 24 }).filter((s) => !ids.includes(s)).map((s): Change => ({ variant: 'client-id:unknown', field: 'clientId', value: s })),
    ...(ids.includes(flipped) ? [] : [fc.constant<Change>({ variant: 'client-id:case-flip', field: 'clientId', value: flipped })]),
  ];
}

/** One case per variant, each with the first client it applies to: every variant runs in every run. */
function oneCasePerChange(ctx: PropertyContext, seed: number) {
  const cases = new Map<string, { client: ClientRegistration; user: ReturnType<typeof pickUser> extends fc.Arbitrary<infer U> ? U : never; change: Change }>();
  for (const client of ctx.config.clients) {
    for (const [i, change] of changesFor(ctx, client).entries()) {
      const [c] = fc.sample(fc.record({ client: fc.constant(client), user: pickUser(ctx), change }), { seed: (seed + i * 7919) | 0, numRuns: 1 });
      if (!cases.has(c!.change.variant)) cases.set(c!.change.variant, c!);
    }
  }
  return [...cases.values()];
}

/** auth.token authenticates the client: wrong, altered or missing secrets and unknown ids fail. */
export const S05: SsoProperty = {
  id: 'S05',
  title: 'auth.token requires client authentication (secret and client id variants fail)',
  severity: 'M',
  run: (ctx, opts) =>
    runFcProperty(
      S05,
      opts,
      fc.tuple(pickClient(ctx), pickUser(ctx)).chain(([client, user]) => fc.record({ client: fc.constant(client), user: fc.constant(user), change: fc.oneof(...changesFor(ctx, client)) })),
      async ({ client, user, change }, counts) => {
        const { code } = await freshLogin(ctx, client, user);
        const body: Record<string, string> = { code, redirectUrl: client.redirectUrl, clientId: client.clientId, clientSecret: client.clientSecret };
        if (change.value === undefined) delete body[change.field];
        else body[change.field] = change.value;
        const reply = await ctx.client.exchangeRaw({ contentType: 'application/json', body: JSON.stringify(body) });
        counts.add(`${change.variant}:${isUniformFailure(reply) ? 'refused' : 'accepted'}`);
        expectThat(isUniformFailure(reply), `an exchange with ${change.variant} must fail`, { status: 200, body: { ok: false, error: 'AUTH0001' } }, replySummary(reply));
      },
      { examples: oneCasePerChange(ctx, opts.seed) },
    ),
};
