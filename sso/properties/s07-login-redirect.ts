import fc from 'fast-check';
import { redirectWithCode } from '../model/front-channel.ts';
import type { FrontObservation } from '../client/driver.ts';
import { badAppQueries, hostileParams, type BadApp } from './generators.ts';
import { expectThat, issuerValues, oneCasePerVariant, readCodeRedirect, pickClient, pickUser, runFcProperty, type PropertyContext, type SsoProperty } from './kit.ts';

/** A redirect that stays on the service and carries no code is not a redirect "away". */
export function staysOnService(ctx: PropertyContext, seen: FrontObservation): boolean {
  if (seen.kind === 'page') return true;
  try {
    const target = new URL(seen.location);
    return target.origin === new URL(ctx.webUrl).origin && !target.searchParams.has('code');
  } catch {
    return false;
  }
}

/** A case with `badApp` as the app parameter (null: the client's own); every bad-app variant also runs once as an example. */
const loginCase = (ctx: PropertyContext, badApp: fc.Arbitrary<BadApp | null>) =>
  fc.record({ client: pickClient(ctx), user: pickUser(ctx), extra: hostileParams(ctx.config.clients), appAt: fc.nat(), badApp, state: fc.option(fc.base64String({ minLength: 36, maxLength: 64 }), { freq: 2 }) });

/**
 * Login sends the browser to exactly the registered Redirect URL plus one code, with 302/303,
 * whatever extra parameters are added; a bad `app` gets no redirect away and no code. Beside the
 * code the redirect may carry RFC 9207's `iss`, which must name this service, and the client's
 * `state`, which must come back unchanged (other added parameters are S09's to search for secrets).
 */
export const S07: SsoProperty = {
  id: 'S07',
  title: 'Login redirects (302/303) only to the registered Redirect URL plus one code; a bad app gets no code',
  severity: 'M',
  run: (ctx, opts) =>
    runFcProperty(
      S07,
      opts,
      loginCase(ctx, fc.option(fc.oneof(...badAppQueries(ctx.config.clients)), { freq: 3 })),
      async ({ client, user, extra, appAt, badApp, state }, counts) => {
        const query: [string, string][] = [...extra, ...(state === null ? [] : [['state', state] as [string, string]])];
        const appParams = badApp ? badApp.query : [['app', client.appId] as [string, string]];
        query.splice(appAt % (query.length + 1), 0, ...appParams);
        const seen = await ctx.driver.login(ctx.newBrowser(), query, { username: user.username, password: user.password });
        if (badApp) {
          counts.add(`bad-app:${badApp.variant}:${seen.kind}`);
          expectThat(staysOnService(ctx, seen), `a login with a bad app (${badApp.variant}) must not redirect away or issue a code`, 'a page, or a redirect within the service without code', seen);
          return;
        }
        counts.add(`good-app:${seen.kind}:${seen.status}`);
        const read = seen.kind === 'redirect' ? readCodeRedirect(seen.location, client.redirectUrl) : null;
        const expected = redirectWithCode(client.redirectUrl, read?.codes[0] ?? '<code>');
        expectThat(
          seen.kind === 'redirect' && (seen.status === 302 || seen.status === 303) && read!.onTarget,
          `login to ${client.appId} with extra parameters must redirect with 302/303 to exactly the Redirect URL plus one code`,
          { kind: 'redirect', status: '302 or 303', location: expected },
          seen,
        );
        for (const [name, value] of read!.extras) {
          counts.add(`added:${name}`);
          if (name === 'iss') {
            const issuers = issuerValues(ctx);
            expectThat(issuers.includes(value), `the redirect's iss must name this service (RFC 9207), got ${JSON.stringify(value)}`, { iss: issuers.length === 1 ? issuers[0] : `one of ${issuers.join(', ')} (or set "issuer" in the config)` }, { location: (seen as { location: string }).location });
          }
          if (name === 'state') expectThat(state === null || value === state, 'the redirect must echo the state the client sent, unchanged (or none)', { state }, { state: value, location: (seen as { location: string }).location });
        }
      },
      { examples: oneCasePerVariant([fc.constant<BadApp | null>(null), ...badAppQueries(ctx.config.clients)], (badApp) => loginCase(ctx, badApp), opts.seed) },
    ),
};
