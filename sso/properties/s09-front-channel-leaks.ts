import fc from 'fast-check';
import { profileOf, registeredRedirectUrls } from '../model/schemas.ts';
import type { FrontObservation } from '../client/driver.ts';
import { hostileParams } from './generators.ts';
import { expectThat, freshToken, pickClient, pickUser, runFcProperty, type SsoProperty } from './kit.ts';

/**
 * No front-channel URL (a redirect the browser follows, the login's own included) carries a
 * token, a client secret, a profile value, or the value of a cookie the service set in the
 * browser: a session cookie in a URL (`session_state=<cookie>`) ends up in logs and Referers.
 */
export const S09: SsoProperty = {
  id: 'S09',
  title: 'No access token, client secret, session cookie or profile value in any front-channel URL',
  severity: 'M',
  needsTokenResult: true,
  run: (ctx, opts) =>
    runFcProperty(
      S09,
      opts,
      fc.record({ client: pickClient(ctx), again: pickClient(ctx), user: pickUser(ctx), extra: hostileParams(ctx.config.clients) }),
      async ({ client, again, user, extra }, counts) => {
        const { browser, token, seen: first } = await freshToken(ctx, client, user);
        const cookies = new Map(ctx.driver.cookiesOf?.(browser) ?? []);
        const seen: FrontObservation[] = [first];
        seen.push(await ctx.driver.login(browser, [['app', again.appId], ...extra]));
        for (const [name, value] of ctx.driver.cookiesOf?.(browser) ?? []) cookies.set(name, value);
        seen.push(await ctx.driver.logout(browser, [['app', again.appId], ...extra]));
        const secrets: [string, string][] = [
          ['access token', token],
          // A short cookie value (a flag, a language) occurs in any URL by chance.
          ...[...cookies].filter(([, v]) => v.length >= 16).map(([name, v]) => [`value of the cookie ${name}`, v] as [string, string]),
          ...ctx.config.clients.map((c) => [`client secret of ${c.appId}`, c.clientSecret] as [string, string]),
          ...Object.entries(profileOf(user))
            // Short values (a gender letter, a level number) occur in any URL by chance.
            .filter(([, v]) => v.length >= 6)
            .map(([k, v]) => [`profile ${k}`, v] as [string, string]),
          ['password', user.password],
        ];
        for (const s of seen) {
          if (s.kind !== 'redirect') continue;
          counts.add('urls-checked');
          const registered = ctx.config.clients.flatMap((c) => [...registeredRedirectUrls(c), c.logoutUrl]);
          let decoded = s.location;
          try {
            decoded = decodeURIComponent(s.location);
          } catch {
            /* keep raw */
          }
          for (const [what, value] of secrets) {
            if (registered.some((r) => r.includes(value))) continue;
            const leaked = s.location.includes(value) || decoded.includes(value) || s.location.includes(encodeURIComponent(value));
            expectThat(!leaked, `the front-channel URL carries the ${what}`, `no ${what} in ${s.location}`, { location: s.location, leaked: what });
          }
        }
      },
    ),
};
