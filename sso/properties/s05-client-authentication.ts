import fc from 'fast-check';
import type { ClientRegistration } from '../model/schemas.ts';
import { secretNearMisses } from './generators.ts';
import { expectThat, freshLogin, isUniformFailure, oneCasePerVariant, pickClient, pickUser, replySummary, runFcProperty, type PropertyContext, type SsoProperty } from './kit.ts';

type Change = { variant: string; field: 'clientSecret' | 'clientId'; value: string | undefined };

/** Every way the exchange can fail to authenticate `client`, by variant name (those that can differ from it). */
function changesFor(ctx: PropertyContext, client: ClientRegistration): Map<string, fc.Arbitrary<Change>> {
  const ids = ctx.config.clients.map((c) => c.clientId);
  const flipped = client.clientId === client.clientId.toUpperCase() ? client.clientId.toLowerCase() : client.clientId.toUpperCase();
  const changes = new Map<string, fc.Arbitrary<Change>>();
  for (const [name, secret] of secretNearMisses(client.clientSecret)) changes.set(`secret:${name}`, secret.map((value): Change => ({ variant: `secret:${name}`, field: 'clientSecret', value })));
  changes.set('secret:missing', fc.constant<Change>({ variant: 'secret:missing', field: 'clientSecret', value: undefined }));
  changes.set('client-id:unknown', fc.string({ minLength: 1, maxLength: 24 }).filter((s) => !ids.includes(s)).map((s): Change => ({ variant: 'client-id:unknown', field: 'clientId', value: s })));
  if (!ids.includes(flipped)) changes.set('client-id:case-flip', fc.constant<Change>({ variant: 'client-id:case-flip', field: 'clientId', value: flipped }));
  return changes;
}

/** A case whose change is the variant `name`, with a client it applies to. */
function caseOf(ctx: PropertyContext, name: fc.Arbitrary<string>) {
  return name.chain((variant) =>
    fc
      .constantFrom(...ctx.config.clients.filter((c) => changesFor(ctx, c).has(variant)))
      .chain((client) => fc.record({ client: fc.constant(client), user: pickUser(ctx), change: changesFor(ctx, client).get(variant)! })),
  );
}

/** The variant names that apply to at least one client, in a stable order. */
const variantsOf = (ctx: PropertyContext) => [...new Set(ctx.config.clients.flatMap((c) => [...changesFor(ctx, c).keys()]))];

/** auth.token authenticates the client: wrong, altered or missing secrets and unknown ids fail. */
export const S05: SsoProperty = {
  id: 'S05',
  title: 'auth.token requires client authentication (secret and client id variants fail)',
  severity: 'M',
  run: (ctx, opts) =>
    runFcProperty(
      S05,
      opts,
      fc.tuple(pickClient(ctx), pickUser(ctx)).chain(([client, user]) => fc.record({ client: fc.constant(client), user: fc.constant(user), change: fc.oneof(...changesFor(ctx, client).values()) })),
      async ({ client, user, change }, counts) => {
        const { code } = await freshLogin(ctx, client, user);
        const body: Record<string, string> = { code, redirectUrl: client.redirectUrl, clientId: client.clientId, clientSecret: client.clientSecret };
        if (change.value === undefined) delete body[change.field];
        else body[change.field] = change.value;
        const reply = await ctx.client.exchangeRaw({ contentType: 'application/json', body: JSON.stringify(body) });
        counts.add(`${change.variant}:${isUniformFailure(reply) ? 'refused' : 'accepted'}`);
        expectThat(isUniformFailure(reply), `an exchange with ${change.variant} must fail`, { status: 200, body: { ok: false, error: 'AUTH0001' } }, replySummary(reply));
      },
      { examples: oneCasePerVariant(variantsOf(ctx).map((v) => fc.constant(v)), (name) => caseOf(ctx, name), opts.seed) },
    ),
};
