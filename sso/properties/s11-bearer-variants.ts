import fc from 'fast-check';
import type { ClientRegistration, UserRecord } from '../model/schemas.ts';
import { expectThat, freshToken, oneCasePerVariant, pickClient, pickUser, replySummary, runFcProperty, type PropertyContext, type SsoProperty } from './kit.ts';

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

type Variant =
  | { kind: 'header'; name: string; headers: (token: string) => string[] }
  | { kind: 'state'; name: 'logged-out' | 'expired'; warm: boolean };

/** One arbitrary per variant (each scheme and blank pattern its own). */
export function bearerVariants(ctx: PropertyContext): fc.Arbitrary<Variant>[] {
  const header = (name: string, headers: (t: string) => string[]): Variant => ({ kind: 'header', name, headers });
  const options: fc.Arbitrary<Variant>[] = [
    fc.constant(header('missing', () => [])),
    ...['Basic', 'Token', 'Bearer:', 'MAC', 'Bearerx'].map((s) => fc.constant(header(`scheme:${s}`, (t) => [`${s} ${t}`]))),
    fc.constant(header('empty', () => ['Bearer '])),
    fc.constant(header('bare-scheme', () => ['Bearer'])),
    fc.constant(header('token-only', (t) => [t])),
    // Leading and trailing blanks are optional whitespace in HTTP (RFC 9110 §5.5) and are stripped
    // before the service sees them, so only blanks inside the value are variants.
    ...['Bearer  %', 'Bearer\t%', 'Bearer %\tx', 'Bearer % x'].map((f) => fc.constant(header(`spaces:${JSON.stringify(f)}`, (t) => [f.replace('%', t)]))),
    fc.constant(header('two-headers', (t) => [`Bearer ${t}`, `Bearer ${t}`])),
    fc.stringMatching(/^[A-Za-z0-9_-]{43}$/).map((r) => header('random', () => [`Bearer ${r}`])),
    fc.nat().map((n) => header('truncated', (t) => [`Bearer ${t.slice(0, Math.max(0, t.length - 1 - (n % Math.max(1, t.length - 1))))}`])),
    fc.nat().map((n) => header('head-cut', (t) => [`Bearer ${t.slice(1 + (n % Math.max(1, t.length - 1)))}`])),
    ...['A', '0', '-', '.', '=='].map((s) => fc.constant(header(`extended:${s}`, (t) => [`Bearer ${t}${s}`]))),
    fc.tuple(fc.nat(), fc.integer({ min: 1, max: 63 })).map(([at, delta]) => header('bit-flipped', (t) => {
      const i = at % t.length;
      const j = B64URL.indexOf(t[i]!);
      const flipped = j < 0 ? 'A' : B64URL[(j ^ delta) % 64]!;
      return [`Bearer ${t.slice(0, i)}${flipped === t[i] ? (flipped === 'A' ? 'B' : 'A') : flipped}${t.slice(i + 1)}`];
    })),
  ];
  // Each once cold and once warm (both endpoints read with the token before it is logged out or
  // expires): a cache of earlier answers must not outlive the token.
  const states = (name: 'logged-out' | 'expired') => [false, true].map((warm) => fc.constant<Variant>({ kind: 'state', name, warm }));
  if (ctx.config.settings.logoutRevokesTokens) options.push(...states('logged-out'));
  // A replayed code's token is not here: revoking it is a should (RFC 6749 §4.1.2), checked by S13.
  if (ctx.control) options.push(...states('expired'));
  return options;
}

/** A fresh token of `user`, logged out or expired without being read first: do both endpoints refuse it? */
async function coldReadRefused(ctx: PropertyContext, client: ClientRegistration, user: UserRecord, state: 'logged-out' | 'expired'): Promise<boolean> {
  const { browser, token } = await freshToken(ctx, client, user);
  if (state === 'logged-out') await ctx.driver.logout(browser, [['app', client.appId]]);
  else await ctx.client.advanceClock(ctx.config.settings.tokenLifetimeSeconds * 1000);
  const headers = [`Bearer ${token}`];
  return (await ctx.client.profile(headers)).status === 401 && (await ctx.client.status(headers)).status === 401;
}

const caseOf = (ctx: PropertyContext, variant: fc.Arbitrary<Variant>) =>
  fc.record({ client: pickClient(ctx), user: pickUser(ctx), endpoint: fc.constantFrom('user.profile', 'auth.status'), variant });

/** Every bearer that is not a live, valid token gets 401 (never 200, never 5xx) on both endpoints. */
export const S11: SsoProperty = {
  id: 'S11',
  title: 'Bearer variants (missing, wrong scheme, empty, truncated, bit-flipped, expired, logged out) answer 401',
  severity: 'M',
  needsTokenResult: true,
  run: (ctx, opts) =>
    runFcProperty(
      S11,
      opts,
      caseOf(ctx, fc.oneof(...bearerVariants(ctx))),
      async ({ client, user, endpoint, variant }, counts) => {
        const { browser, token } = await freshToken(ctx, client, user);
        let headers: string[];
        if (variant.kind === 'header') headers = variant.headers(token);
        else {
          headers = [`Bearer ${token}`];
          if (variant.warm) for (const r of [await ctx.client.profile(headers), await ctx.client.status(headers)]) counts.add(`warm-read:${r.status}`);
          if (variant.name === 'logged-out') await ctx.driver.logout(browser, [['app', client.appId]]);
          if (variant.name === 'expired') await ctx.client.advanceClock(ctx.config.settings.tokenLifetimeSeconds * 1000);
          const name = `${variant.name}${variant.warm ? '-warm' : ''}`;
          const [profile, status] = [await ctx.client.profile(headers), await ctx.client.status(headers)];
          counts.add(`${name}:${profile.status}/${status.status}`);
          counts.add(`variant ${name}`);
          // Both endpoints are asked: a setting (logoutRevokesTokens, tokenLifetimeSeconds) holds for
          // both, so one 401 beside one 200 is a fault under any setting and names none.
          const split = (profile.status === 401) !== (status.status === 401);
          const refused = profile.status === 401 && status.status === 401;
          // A warm token both endpoints still take: ask a cold one of the same kind. A setting
          // (logoutRevokesTokens, tokenLifetimeSeconds) holds for cold and warm alike, so a cold
          // 401 beside a warm 200 is a cache that outlives the token: a fault under any setting.
          const coldRefused = !refused && !split && variant.warm ? await coldReadRefused(ctx, client, user, variant.name) : false;
          const setting = split || coldRefused ? undefined : variant.name === 'logged-out' ? 'logoutRevokesTokens (true)' : 'tokenLifetimeSeconds';
          const why = split
            ? ` (they disagree: user.profile ${profile.status}, auth.status ${status.status}; a fault under any setting)`
            : coldRefused
              ? ` (a cold ${variant.name} token gets 401 on both: what was read before outlives the ${variant.name === 'logged-out' ? 'logout' : 'lifetime'}, a cache; a fault under any setting)`
              : '';
          expectThat(
            refused,
            `user.profile and auth.status with a ${name} bearer must answer 401${why}`,
            { 'user.profile': { status: 401 }, 'auth.status': { status: 401 } },
            { 'user.profile': replySummary(profile), 'auth.status': replySummary(status) },
            setting,
          );
          return;
        }
        if (variant.kind === 'header' && headers.length === 1 && headers[0] === `Bearer ${token}`) return void counts.add(`variant ${variant.name} (no-op)`); // the mutation happened to be a no-op
        const reply = endpoint === 'user.profile' ? await ctx.client.profile(headers) : await ctx.client.status(headers);
        counts.add(`${variant.name.split(':')[0]}:${reply.status}`);
        counts.add(`variant ${variant.name}`);
        if (variant.name === 'two-headers') {
          // Two identical lines: node:http and many proxies keep the first, which is the valid token;
          // refusing (400/401) is as good. Either way no 5xx and no other answer.
          expectThat([200, 400, 401].includes(reply.status), `${endpoint} with two identical Authorization lines must answer 401/400, or 200 reading the first line`, { status: '401, 400 or 200' }, { headers, reply: replySummary(reply) });
          return;
        }
        expectThat(reply.status === 401, `${endpoint} with a ${variant.name} bearer must answer 401`, { status: 401 }, { headers, reply: replySummary(reply) }, variant.name === 'logged-out' ? 'logoutRevokesTokens (true)' : variant.name === 'expired' ? 'tokenLifetimeSeconds' : undefined);
      },
      { examples: oneCasePerVariant(bearerVariants(ctx), (v) => caseOf(ctx, v), opts.seed) },
    ),
};
