import fc from 'fast-check';
import { redirectWithCode } from '../model/front-channel.ts';
import type { FrontObservation } from '../client/driver.ts';
import { badAppQueries, hostileParams, type BadApp } from './generators.ts';
import { codesIn, expectThat, oneCasePerVariant, pickClient, pickUser, runFcProperty, type PropertyContext, type SsoProperty } from './kit.ts';

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
const loginCase = (ctx: PropertyContext, badApp: fc.Arbitrary<BadApp | null>) => fc.record({ client: pickClient(ctx), user: pickUser(ctx), extra: hostileParams(ctx.config.clients), appAt: fc.nat(), badApp });

/**
 * Login sends the browser to exactly the registered Redirect URL plus one code, with 302/303,
 * whatever extra parameters are added; a bad `app` gets no redirect away and no code.
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
      async ({ client, user, extra, appAt, badApp }, counts) => {
        const query: [string, string][] = [...extra];
        const appParams = badApp ? badApp.query : [['app', client.appId] as [string, string]];
        query.splice(appAt % (query.length + 1), 0, ...appParams);
        const seen = await ctx.driver.login(ctx.newBrowser(), query, { username: user.username, password: user.password });
        if (badApp) {
          counts.add(`bad-app:${badApp.variant}:${seen.kind}`);
          expectThat(staysOnService(ctx, seen), `a login with a bad app (${badApp.variant}) must not redirect away or issue a code`, 'a page, or a redirect within the service without code', seen);
          return;
        }
        counts.add(`good-app:${seen.kind}:${seen.status}`);
        const codes = seen.kind === 'redirect' ? codesIn(seen.location, client.redirectUrl) : [];
        const expected = redirectWithCode(client.redirectUrl, codes[0] ?? '<code>');
        expectThat(
          seen.kind === 'redirect' && (seen.status === 302 || seen.status === 303) && codes.length === 1 && seen.location === expected,
          `login to ${client.appId} with extra parameters must redirect with 302/303 to exactly the Redirect URL plus one code`,
          { kind: 'redirect', status: '302 or 303', location: expected },
          seen,
        );
      },
      { examples: oneCasePerVariant([fc.constant<BadApp | null>(null), ...badAppQueries(ctx.config.clients)], (badApp) => loginCase(ctx, badApp), opts.seed) },
    ),
};
