import fc from 'fast-check';
import { headerValue } from '../client/http.ts';
import { expectThat, freshLogin, freshToken, goodTokenRequest, pickClient, pickUser, replySummary, runFcProperty, type SsoProperty } from './kit.ts';

const STRICT_REFERRER = new Set(['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin']);

/**
 * The shoulds: strict Referrer-Policy on the login page, `Cache-Control: no-store` on token and
 * profile answers, `WWW-Authenticate: Bearer` on 401, no token accepted in the query or body.
 */
export const S16: SsoProperty = {
  id: 'S16',
  title: 'Referrer-Policy, Cache-Control: no-store, WWW-Authenticate, and no token outside the header',
  severity: 'S',
  needsTokenResult: true,
  run: (ctx, opts) =>
    runFcProperty(
      S16,
      opts,
      fc.record({ client: pickClient(ctx), user: pickUser(ctx), where: fc.constantFrom('query', 'body'), param: fc.constantFrom('access_token', 'accessToken', 'token') }),
      async ({ client, user, where, param }, counts) => {
        const page = await ctx.driver.login(ctx.newBrowser(), [['app', client.appId]]);
        const rp = (page.headers['referrer-policy'] ?? '').split(',').map((s) => s.trim().toLowerCase()).pop() ?? '';
        expectThat(STRICT_REFERRER.has(rp), 'the login page must send a strict Referrer-Policy', [...STRICT_REFERRER], page.headers['referrer-policy'] ?? null);

        const { code } = await freshLogin(ctx, client, user);
        const { reply: tokenReply } = await ctx.client.exchange(goodTokenRequest(client, code));
        expectThat(/no-store/i.test(headerValue(tokenReply, 'cache-control') ?? ''), 'a token answer must carry Cache-Control: no-store', 'no-store', headerValue(tokenReply, 'cache-control') ?? null);

        const { token } = await freshToken(ctx, client, user);
        const prof = await ctx.client.profile([`Bearer ${token}`]);
        expectThat(/no-store/i.test(headerValue(prof, 'cache-control') ?? ''), 'a profile answer must carry Cache-Control: no-store', 'no-store', headerValue(prof, 'cache-control') ?? null);

        const outside = where === 'query' ? await ctx.client.profile([], { query: `${param}=${encodeURIComponent(token)}` }) : await ctx.client.profile([], { body: JSON.stringify({ [param]: token }) });
        counts.add(`token-in-${where}:${outside.status}`);
        expectThat(outside.status === 401, `a token in the ${where} (${param}) must not be accepted`, { status: 401 }, replySummary(outside));
        expectThat(/^bearer\b/i.test(headerValue(outside, 'www-authenticate') ?? ''), 'a 401 must carry WWW-Authenticate: Bearer', 'Bearer', headerValue(outside, 'www-authenticate') ?? null);
      },
    ),
};
