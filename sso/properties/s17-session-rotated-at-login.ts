import fc from 'fast-check';
import { StatusResponseSchema } from '../model/schemas.ts';
import { bodyOf } from '../client/client.ts';
import { codesIn, expectThat, goodTokenRequest, pickClient, runFcProperty, type PropertyContext, type SsoProperty } from './kit.ts';
import type { ClientRegistration, UserRecord } from '../model/schemas.ts';

/** Log `user` in within the given browser and exchange the code; returns the token. */
async function loginIn(ctx: PropertyContext, browser: string, client: ClientRegistration, user: UserRecord): Promise<string> {
  const seen = await ctx.driver.login(browser, [['app', client.appId]], { username: user.username, password: user.password });
  const codes = seen.kind === 'redirect' ? codesIn(seen.location, client.redirectUrl) : [];
  expectThat(codes.length === 1, `a login of ${user.username} to ${client.appId} must redirect with one code`, 'a redirect with one code', seen);
  const { parsed, reply } = await ctx.client.exchange(goodTokenRequest(client, codes[0]!));
  expectThat(parsed?.ok === true, 'the exchange of a fresh code must succeed', { ok: true }, { status: reply.status, body: bodyOf(reply) });
  return (parsed as { accessToken: string }).accessToken;
}

async function sessionOf(ctx: PropertyContext, token: string): Promise<{ status: number; user?: { sessionId: string; email: string; role: string } }> {
  const reply = await ctx.client.status([`Bearer ${token}`]);
  const parsed = StatusResponseSchema.safeParse(bodyOf(reply));
  return parsed.success && reply.status === 200 ? { status: 200, user: parsed.data.user } : { status: reply.status };
}

/**
 * Login starts a new session (session fixation, OWASP): a cookie the browser held before login
 * must not carry the new session, and logging out and in as another user in the same browser
 * gives another session id, while the first user's token never shows the second user's session.
 */
export const S17: SsoProperty = {
  id: 'S17',
  title: 'Login rotates the session: a pre-login cookie carries no session, and a new login in the same browser gets a new session id',
  severity: 'M',
  run: (ctx, opts) =>
    runFcProperty(
      S17,
      opts,
      fc.record({ client: pickClient(ctx), pair: fc.shuffledSubarray([...ctx.config.users], { minLength: 2, maxLength: 2 }) }),
      async ({ client, pair: [a, b] }, counts) => {
        const browser = ctx.newBrowser();
        await ctx.driver.login(browser, [['app', client.appId]]); // the login page, as an attacker would open it
        const before = ctx.driver.cookiesOf?.(browser) ?? [];
        const tokenA = await loginIn(ctx, browser, client, a!);
        if (before.length && ctx.driver.plantCookies) {
          // The attacker's copy of the pre-login cookies, in another browser.
          const attacker = ctx.newBrowser();
          ctx.driver.plantCookies(attacker, before);
          const seen = await ctx.driver.login(attacker, [['app', client.appId]]);
          const leaked = seen.kind === 'redirect' && codesIn(seen.location, client.redirectUrl).length > 0;
          counts.add(leaked ? 'fixation:session-followed-old-cookie' : 'fixation:refused');
          expectThat(!leaked, `cookies set before ${a!.username}'s login must not carry the session after it (session fixation)`, 'the login form for a browser holding only the pre-login cookies', { cookiesBeforeLogin: before.map(([k]) => k), answer: seen });
        } else counts.add('fixation:not-checked (no pre-login cookie or driver cannot plant cookies)');
        const sessionA = await sessionOf(ctx, tokenA);
        expectThat(sessionA.status === 200 && sessionA.user?.email === a!.email, `auth.status must describe ${a!.username}'s session`, { status: 200, email: a!.email }, sessionA);
        await ctx.driver.logout(browser, [['app', client.appId]]);
        const tokenB = await loginIn(ctx, browser, client, b!);
        const sessionB = await sessionOf(ctx, tokenB);
        expectThat(sessionB.user !== undefined && sessionB.user.sessionId !== sessionA.user!.sessionId, `a login of ${b!.username} after ${a!.username} logged out in the same browser must get a new session id`, `a sessionId other than ${sessionA.user!.sessionId}`, sessionB);
        const againA = await sessionOf(ctx, tokenA);
        counts.add(`first-token-after-logout:${againA.status}`);
        expectThat(againA.status !== 200 || (againA.user!.email === a!.email && againA.user!.sessionId === sessionA.user!.sessionId), `${a!.username}'s token must never show ${b!.username}'s session`, { status: 401, or: sessionA.user }, againA);
      },
    ),
};
