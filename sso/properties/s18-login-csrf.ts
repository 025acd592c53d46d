import fc from 'fast-check';
import { codesIn, expectThat, notApplicable, pickClient, pickUser, runFcProperty, type SsoProperty } from './kit.ts';

const ATTACKER = 'https://attacker.example';

/**
 * Login CSRF: a page on another site posts the login form with the attacker's credentials, so
 * the victim ends up signed in as the attacker. The form should carry an anti-CSRF token bound
 * to the browser, or the service should check `Origin`. A should: the spec does not ask for it.
 */
export const S18: SsoProperty = {
  id: 'S18',
  title: 'The login form refuses a cross-site POST (anti-CSRF token or Origin check)',
  severity: 'S',
  run: async (ctx, opts) => {
    const driver = ctx.driver;
    if (!driver.crossSitePost) return notApplicable(S18, opts.seed, `the ${driver.name} driver cannot post from another site; run without --browser`);
    return runFcProperty(S18, opts, fc.record({ client: pickClient(ctx), user: pickUser(ctx) }), async ({ client, user }, counts) => {
      const seen = await driver.crossSitePost!([['app', client.appId]], { username: user.username, password: user.password }, ATTACKER);
      const signedIn = seen.kind === 'redirect' && codesIn(seen.location, client.redirectUrl).length > 0;
      counts.add(signedIn ? 'cross-site-login-accepted' : `refused:${seen.status}`);
      expectThat(!signedIn, `a login form posted from ${ATTACKER} (no cookies, no anti-CSRF token of the victim) must not sign the browser in`, 'a refusal page', seen);
    });
  },
};
