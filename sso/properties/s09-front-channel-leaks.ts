import fc from 'fast-check';
import { profileOf } from '../model/schemas.ts';
import type { FrontObservation } from '../client/driver.ts';
import { hostileParams } from './generators.ts';
import { expectThat, freshToken, pickClient, pickUser, runFcProperty, type SsoProperty } from './kit.ts';

/** No front-channel URL (a redirect the browser follows) carries a token, a client secret or a profile value. */
export const S09: SsoProperty = {
  id: 'S09',
  title: 'No access token, client secret or profile value in any front-channel URL',
  severity: 'M',
  run: (ctx, opts) =>
    runFcProperty(
      S09,
      opts,
      fc.record({ client: pickClient(ctx), again: pickClient(ctx), user: pickUser(ctx), extra: hostileParams(ctx.config.clients) }),
      async ({ client, again, user, extra }, counts) => {
        const { browser, token } = await freshToken(ctx, client, user);
        const seen: FrontObservation[] = [];
        seen.push(await ctx.driver.login(browser, [['app', again.appId], ...extra]));
        seen.push(await ctx.driver.logout(browser, [['app', again.appId], ...extra]));
        const secrets: [string, string][] = [
          ['access token', token],
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
          const registered = [...ctx.config.clients.flatMap((c) => [c.redirectUrl, c.logoutUrl])];
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
