import fc from 'fast-check';
import { FormPostDriver } from '../client/form-driver.ts';
import type { FrontObservation } from '../client/driver.ts';
import { StatusResponseSchema } from '../model/schemas.ts';
import { bodyOf } from '../client/client.ts';
import { codesIn, expectThat, goodTokenRequest, pickClient, pickUser, runFcProperty, type SsoProperty } from './kit.ts';
import type { ClientRegistration, UserRecord } from '../model/schemas.ts';

/**
 * The session id changes at login (no session fixation). Checked by behaviour, whatever the
 * cookie is called: cookies an attacker holds from before a login, or from an earlier logged-out
 * session of the same browser, must never yield a silent code afterwards; and auth.status of an
 * earlier user's token never reports the later user's session.
 */
export const S17: SsoProperty = {
  id: 'S17',
  title: 'The session id is rotated at login: cookies from before a login or from a logged-out session never log anyone in',
  severity: 'M',
  run: (ctx, opts) => {
    const web = new FormPostDriver(ctx.webUrl, ctx.http, ctx.config.loginPage);
    return runFcProperty(S17, opts, fc.record({ client: pickClient(ctx), first: pickUser(ctx), second: pickUser(ctx) }), async ({ client, first, second }, counts) => {
      const app: [string, string][] = [['app', client.appId]];
      // 1. The attacker loads the login page and plants its cookies in the victim's browser.
      const attacker = ctx.newBrowser();
      await web.login(attacker, app);
      const planted = web.cookiesOf(attacker);
      const victim = ctx.newBrowser();
      web.setCookies(victim, planted);
      const codeA = await loginCode(web, victim, client, first);
      const replay = await web.login(attacker, app);
      counts.add(`planted-cookies:${planted.size}`);
      expectThat(!hasCode(replay, client), `cookies set before ${first.username}'s login must not log their holder in after it (session fixation)`, { kind: 'page' }, summary(replay));

      // 2. Cookies of a logged-out session stay dead after the same browser logs in as someone else.
      const before = web.cookiesOf(victim);
      const tokenA = (await ctx.client.exchange(goodTokenRequest(client, codeA))).parsed;
      await web.logout(victim, app);
      const codeB = await loginCode(web, victim, client, second);
      const tokenB = (await ctx.client.exchange(goodTokenRequest(client, codeB))).parsed;
      const old = ctx.newBrowser();
      web.setCookies(old, before);
      const reuse = await web.login(old, app);
      expectThat(!hasCode(reuse, client), `cookies of ${first.username}'s logged-out session must not log in ${second.username}'s later session`, { kind: 'page' }, summary(reuse));

      // 3. auth.status: the earlier token never reports the later session.
      if (tokenA?.ok && tokenB?.ok) {
        const a = StatusResponseSchema.safeParse(bodyOf(await ctx.client.status([`Bearer ${tokenA.accessToken}`])));
        const b = StatusResponseSchema.safeParse(bodyOf(await ctx.client.status([`Bearer ${tokenB.accessToken}`])));
        counts.add(`earlier-token:${a.success ? 'live' : 'revoked'}`);
        if (a.success && b.success) {
          expectThat(a.data.user.sessionId !== b.data.user.sessionId, `auth.status of ${first.username}'s token must not report the session opened later for ${second.username}`, 'two different sessionIds', { earlier: a.data.user, later: b.data.user });
        }
      }
    });
  },
};

async function loginCode(web: FormPostDriver, browser: string, client: ClientRegistration, user: UserRecord): Promise<string> {
  const seen = await web.login(browser, [['app', client.appId]], { username: user.username, password: user.password });
  const codes = seen.kind === 'redirect' ? codesIn(seen.location, client.redirectUrl) : [];
  expectThat(codes.length === 1, `a login of ${user.username} to ${client.appId} must redirect with one code`, { kind: 'redirect' }, summary(seen));
  return codes[0]!;
}

function hasCode(seen: FrontObservation, client: ClientRegistration): boolean {
  return seen.kind === 'redirect' && codesIn(seen.location, client.redirectUrl).length > 0;
}

function summary(seen: FrontObservation): unknown {
  return seen.kind === 'redirect' ? { kind: 'redirect', status: seen.status, location: seen.location } : { kind: 'page', status: seen.status };
}

