import fc from 'fast-check';
import { badAppQueries, hostileParams, type BadApp } from './generators.ts';
import { expectThat, freshLogin, oneCasePerVariant, pickClient, pickUser, runFcProperty, type PropertyContext, type SsoProperty } from './kit.ts';
import { staysOnService } from './s07-login-redirect.ts';

/** A case with `badApp` as the app parameter (null: the client's own); every bad-app variant also runs once as an example. */
const logoutCase = (ctx: PropertyContext, badApp: fc.Arbitrary<BadApp | null>) => fc.record({ client: pickClient(ctx), next: pickClient(ctx), user: pickUser(ctx), extra: hostileParams(ctx.config.clients), appAt: fc.nat(), badApp });

/** Where the browser says it came from on every logout: a Referer is no redirect target either. */
export const LOGOUT_REFERER = 'https://evil.example/came-from';

/**
 * Logout sends the browser to exactly the registered Logout URL whatever extra parameters or the
 * Referer say; a bad `app` (missing, unknown…) gets no external redirect, not even back to the
 * Referer; after logout the next login must authenticate again.
 */
export const S08: SsoProperty = {
  id: 'S08',
  title: 'Logout redirects only to the registered Logout URL and ends the session (no silent code after)',
  severity: 'M',
  run: (ctx, opts) =>
    runFcProperty(
      S08,
      opts,
      logoutCase(ctx, fc.option(fc.oneof(...badAppQueries(ctx.config.clients)), { freq: 4 })),
      async ({ client, next, user, extra, appAt, badApp }, counts) => {
        const { browser } = await freshLogin(ctx, client, user);
        const query: [string, string][] = [...extra];
        query.splice(appAt % (query.length + 1), 0, ...(badApp ? badApp.query : [['app', client.appId] as [string, string]]));
        const seen = await ctx.driver.logout(browser, query, { referer: LOGOUT_REFERER });
        if (badApp) {
          counts.add(`bad-app:${badApp.variant}:${seen.kind}`);
          expectThat(staysOnService(ctx, seen), `a logout with a bad app (${badApp.variant}) must not redirect away`, 'a page, or a redirect within the service', seen);
          return;
        }
        counts.add(`logout:${seen.kind}`);
        expectThat(
          seen.kind === 'redirect' && (seen.status === 302 || seen.status === 303) && seen.location === client.logoutUrl,
          `logout of ${client.appId} must redirect to exactly its Logout URL, whatever extra parameters say`,
          { kind: 'redirect', status: '302 or 303', location: client.logoutUrl },
          seen,
        );
        const after = await ctx.driver.login(browser, [['app', next.appId]]);
        counts.add(`login-after-logout:${after.kind}`);
        expectThat(after.kind === 'page', `after logout, a login to ${next.appId} must ask for credentials again (no silent code)`, { kind: 'page' }, after);
      },
      { examples: oneCasePerVariant([fc.constant<BadApp | null>(null), ...badAppQueries(ctx.config.clients)], (badApp) => logoutCase(ctx, badApp), opts.seed) },
    ),
};
