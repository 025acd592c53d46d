import fc from 'fast-check';
import { FormPostDriver } from '../client/form-driver.ts';
import { codesIn, expectThat, notApplicable, pickClient, pickUser, runFcProperty, type SsoProperty } from './kit.ts';

const ATTACKER_ORIGIN = 'https://attacker.example';

/**
 * Login CSRF: a page on another site posts the login form in the victim's browser with the
 * attacker's credentials, so the victim ends up signed in as the attacker. The attacker can copy
 * the form (its fields, even a CSRF token issued to the attacker's own browser) but not the
 * victim's cookies, and the browser sends the attacker's Origin. The service must refuse it
 * (an anti-CSRF token bound to the browser, or an Origin check). A should: the spec says nothing.
 */
export const S19: SsoProperty = {
  id: 'S19',
  title: 'The login form refuses a cross-site POST (anti-CSRF token or Origin check)',
  severity: 'S',
  run: async (ctx, opts) => {
    const web = new FormPostDriver(ctx.webUrl, ctx.http, ctx.config.loginPage);
    const probe = await web.loginForm(ctx.newBrowser(), [['app', ctx.config.clients[0]!.appId]]);
    if (!probe.form) return notApplicable(S19, opts.seed, `no login form with a password input named "${web.fieldNames.passwordField}" to post`);
    return runFcProperty(S19, opts, fc.record({ client: pickClient(ctx), user: pickUser(ctx), victimVisited: fc.boolean() }), async ({ client, user, victimVisited }, counts) => {
      const app: [string, string][] = [['app', client.appId]];
      const { form } = await web.loginForm(ctx.newBrowser(), app);
      expectThat(form !== null, `the login page of ${client.appId} must show the login form`, 'a form', null);
      const { usernameField, passwordField } = web.fieldNames;
      const fields: [string, string][] = [...form!.fields.filter(([k]) => k !== usernameField && k !== passwordField), [usernameField, user.username], [passwordField, user.password]];
      const victim = ctx.newBrowser();
      // The victim may have its own cookies from an earlier visit to the login page.
      if (victimVisited) await web.login(victim, app);
      const seen = await web.submit(victim, form!.action, fields, ATTACKER_ORIGIN);
      const loggedIn = seen.kind === 'redirect' && codesIn(seen.location, client.redirectUrl).length > 0;
      counts.add(`${victimVisited ? 'victim-visited' : 'fresh-victim'}:${loggedIn ? 'logged-in' : 'refused'}`);
      expectThat(!loggedIn, `a login form posted from ${ATTACKER_ORIGIN} into another browser must not log it in`, { kind: 'page', note: 'refused' }, seen.kind === 'redirect' ? { kind: 'redirect', status: seen.status, location: seen.location } : { kind: 'page', status: seen.status });
    });
  },
};
