import fc from 'fast-check';
import { secretNearMiss } from './generators.ts';
import { expectThat, freshLogin, isUniformFailure, pickClient, pickUser, replySummary, runFcProperty, type SsoProperty } from './kit.ts';

/** auth.token authenticates the client: wrong, altered or missing secrets and unknown ids fail. */
export const S05: SsoProperty = {
  id: 'S05',
  title: 'auth.token requires client authentication (secret and client id variants fail)',
  severity: 'M',
  run: (ctx, opts) =>
    runFcProperty(
      S05,
      opts,
      fc.tuple(pickClient(ctx), pickUser(ctx)).chain(([client, user]) =>
        fc.record({
          client: fc.constant(client),
          user: fc.constant(user),
          change: fc.oneof(
            { weight: 3, arbitrary: secretNearMiss(client.clientSecret).map((s) => ({ variant: `secret:${s.variant}`, field: 'clientSecret' as const, value: s.secret as string | undefined })) },
            fc.constant({ variant: 'secret:missing', field: 'clientSecret' as const, value: undefined }),
            fc.string({ minLength: 1, maxLength: 24 }).filter((s) => !ctx.config.clients.some((c) => c.clientId === s)).map((s) => ({ variant: 'client-id:unknown', field: 'clientId' as const, value: s as string | undefined })),
            fc.constant({ variant: 'client-id:case-flip', field: 'clientId' as const, value: client.clientId.toUpperCase() as string | undefined }).filter((c) => c.value !== client.clientId),
          ),
        }),
      ),
      async ({ client, user, change }, counts) => {
        const { code } = await freshLogin(ctx, client, user);
        const body: Record<string, string> = { code, redirectUrl: client.redirectUrl, clientId: client.clientId, clientSecret: client.clientSecret };
        if (change.value === undefined) delete body[change.field];
        else body[change.field] = change.value;
        const reply = await ctx.client.exchangeRaw({ contentType: 'application/json', body: JSON.stringify(body) });
        counts.add(`${change.variant}:${isUniformFailure(reply) ? 'refused' : 'accepted'}`);
        expectThat(isUniformFailure(reply), `an exchange with ${change.variant} must fail`, { status: 200, body: { ok: false, error: 'AUTH0001' } }, replySummary(reply));
      },
    ),
};
