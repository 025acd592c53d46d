import fc from 'fast-check';
import { secretNearMisses } from './generators.ts';
import type { ClientRegistration } from '../model/schemas.ts';
import { expectThat, freshLogin, isUniformFailure, pickClient, pickUser, replySummary, runFcProperty, type SsoProperty } from './kit.ts';

/** auth.token authenticates the client: wrong, altered or missing secrets and unknown ids fail. */
export const S05: SsoProperty = {
  id: 'S05',
  title: 'auth.token requires client authentication (secret and client id variants fail)',
  severity: 'M',
  run: (ctx, opts) => {
    type Change = { variant: string; field: 'clientSecret' | 'clientId'; value: string | undefined };
    const changes = (client: ClientRegistration): fc.Arbitrary<Change>[] => [
      ...secretNearMisses(client.clientSecret).map((a) => a.map((s): Change => ({ variant: `secret:${s.variant}`, field: 'clientSecret', value: s.secret }))),
      fc.constant<Change>({ variant: 'secret:missing', field: 'clientSecret', value: undefined }),
      fc.string({ minLength: 1, maxLength: 24 }).filter((s) => !ctx.config.clients.some((c) => c.clientId === s)).map((s): Change => ({ variant: 'client-id:unknown', field: 'clientId', value: s })),
      ...(client.clientId.toUpperCase() !== client.clientId ? [fc.constant<Change>({ variant: 'client-id:case-flip', field: 'clientId', value: client.clientId.toUpperCase() })] : []),
    ];
    const caseWith = (pick: (arms: fc.Arbitrary<Change>[]) => fc.Arbitrary<Change>) =>
      fc.tuple(pickClient(ctx), pickUser(ctx)).chain(([client, user]) => fc.record({ client: fc.constant(client), user: fc.constant(user), change: pick(changes(client)) }));
    // Every variant runs in every run (one case each); the rest are drawn evenly over them.
    const armCount = Math.min(...ctx.config.clients.map((c) => changes(c).length));
    const examples = Array.from({ length: armCount }, (_, i) => fc.sample(caseWith((arms) => arms[i]!), { seed: (opts.seed + i * 7919) | 0, numRuns: 1 })[0]!);
    return runFcProperty(
      S05,
      opts,
      caseWith((arms) => fc.oneof(...arms)),
      async ({ client, user, change }, counts) => {
        const { code } = await freshLogin(ctx, client, user);
        const body: Record<string, string> = { code, redirectUrl: client.redirectUrl, clientId: client.clientId, clientSecret: client.clientSecret };
        if (change.value === undefined) delete body[change.field];
        else body[change.field] = change.value;
        const reply = await ctx.client.exchangeRaw({ contentType: 'application/json', body: JSON.stringify(body) });
        counts.add(`${change.variant}:${isUniformFailure(reply) ? 'refused' : 'accepted'}`);
        expectThat(isUniformFailure(reply), `an exchange with ${change.variant} must fail`, { status: 200, body: { ok: false, error: 'AUTH0001' } }, replySummary(reply));
      },
      { examples },
    );
  },
};
