import fc from 'fast-check';
import type { PropertyResult } from '../../engine/runner/result.ts';
import { Disagreement, RunStopped, expectSuccessfulExchange, expectThat, failureMessage, freshLogin, goodTokenRequest, tokenDrift, isUniformFailure, notApplicable, pickClient, pickUser, replySummary, runFcProperty, type PropertyContext, type PropertyRunOptions, type SsoProperty } from './kit.ts';

/** Milliseconds real-time mode waits beyond a lifetime, so clock skew and latency cannot tip a verdict. */
export const REAL_TIME_MARGIN_MS = 1000;
/** Codes issued before the one real-time wait. */
const REAL_TIME_CODES = 5;

/** A code past its lifetime fails (and the lifetime is at most 10 minutes): by the control API's clock, or in real time. */
export const S06: SsoProperty = {
  id: 'S06',
  title: 'A code past its lifetime (setting codeLifetimeSeconds, at most 10 min) fails',
  severity: 'M',
  run: async (ctx, opts) => {
    if (!ctx.control && ctx.realTime) return realTimeExpiry(ctx, opts);
    if (!ctx.control) return notApplicable(S06, opts.seed, 'expiry not checked: the target has no control API (--control-api) and the real-time wait is off (--no-wait); drop --no-wait to wait the lifetimes out');
    const lifetimeMs = Math.min(ctx.config.settings.codeLifetimeSeconds, 600) * 1000;
    return runFcProperty(
      S06,
      opts,
      fc.record({ client: pickClient(ctx), user: pickUser(ctx), extraMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 10 * 60_000 })) }),
      async ({ client, user, extraMs }, counts) => {
        const { code } = await freshLogin(ctx, client, user);
        await ctx.client.advanceClock(lifetimeMs + extraMs);
        const { reply } = await ctx.client.exchange(goodTokenRequest(client, code));
        counts.add(isUniformFailure(reply) ? 'expired-refused' : 'expired-accepted');
        expectThat(isUniformFailure(reply), `a code ${lifetimeMs + extraMs} ms old (lifetime ${lifetimeMs} ms) must fail`, { status: 200, body: { ok: false, error: 'AUTH0001' } }, replySummary(reply), 'codeLifetimeSeconds');
      },
    );
  },
};

/**
 * Real-time mode: issue a few codes (and one token when the token lifetime fits the bound), wait
 * once past the lifetimes, then every code must fail (and the token get 401).
 */
export async function realTimeExpiry(ctx: PropertyContext, opts: PropertyRunOptions): Promise<PropertyResult> {
  const started = Date.now();
  const { codeLifetimeSeconds, tokenLifetimeSeconds } = ctx.config.settings;
  const codeWait = codeLifetimeSeconds * 1000 + REAL_TIME_MARGIN_MS;
  const tokenWait = tokenLifetimeSeconds * 1000 + REAL_TIME_MARGIN_MS;
  const base = { id: S06.id, title: S06.title, area: 'sso' as const, seed: opts.seed };
  if (codeWait > ctx.realTime!.maxWaitMs) return notApplicable(S06, opts.seed, `expiry not checked: the code lifetime (${codeLifetimeSeconds} s) is beyond the ${ctx.realTime!.maxWaitMs / 1000} s bound of the real-time wait; --max-wait ${codeLifetimeSeconds + 1} waits it out`);
  const withToken = tokenWait <= ctx.realTime!.maxWaitMs;
  const cases = fc.sample(fc.record({ client: pickClient(ctx), user: pickUser(ctx) }), { seed: opts.seed, numRuns: Math.min(REAL_TIME_CODES, opts.numRuns) });
  const counts: Record<string, number> = {};
  const count = (k: string) => void (counts[k] = (counts[k] ?? 0) + 1);
  try {
    // The token, unless auth.token's answer drifted from the spec (S12 reports that): then the
    // codes are still checked, and the note says why the token was not.
    let drifted = false;
    let token: { token: string } | null = null;
    if (withToken) {
      const { client, user } = cases[0]!;
      const { code } = await freshLogin(ctx, client, user);
      const { reply, parsed } = await ctx.client.exchange(goodTokenRequest(client, code));
      drifted = tokenDrift(reply) !== null;
      if (!drifted) {
        expectSuccessfulExchange(reply, parsed);
        token = { token: (parsed as { accessToken: string }).accessToken };
      }
    }
    const issued = [];
    for (const c of cases) issued.push({ ...c, code: (await freshLogin(ctx, c.client, c.user)).code });
    const waitMs = token ? Math.max(codeWait, tokenWait) : codeWait;
    // The one long wait; a stop signal (SIGTERM) ends it at once and the property has no verdict.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      opts.signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
    if (opts.signal?.aborted) throw new RunStopped('stopped by a signal during the real-time wait');
    for (const { client, user, code } of issued) {
      const { reply } = await ctx.client.exchange(goodTokenRequest(client, code));
      count(isUniformFailure(reply) ? 'expired-refused' : 'expired-accepted');
      expectThat(isUniformFailure(reply), `${user.username}'s code for ${client.appId}, ${waitMs} ms old (lifetime ${codeLifetimeSeconds} s), must fail`, { status: 200, body: { ok: false, error: 'AUTH0001' } }, replySummary(reply), 'codeLifetimeSeconds');
    }
    if (token) {
      const reply = await ctx.client.profile([`Bearer ${token.token}`]);
      count(`expired-token:${reply.status}`);
      expectThat(reply.status === 401, `a token ${waitMs} ms old (lifetime ${tokenLifetimeSeconds} s) must get 401`, { status: 401 }, replySummary(reply), 'tokenLifetimeSeconds');
    }
    const tokenPart = token ? `, token lifetime ${tokenLifetimeSeconds} s` : drifted ? `; token not checked: auth.token's answer drifted from the spec's schema (S12 reports it)` : `; token lifetime ${tokenLifetimeSeconds} s is beyond the bound, not checked`;
    const note = `real-time mode: waited ${(waitMs / 1000).toFixed(1)} s past issue (code lifetime ${codeLifetimeSeconds} s${tokenPart})`;
    return { ...base, status: 'passed', cases: issued.length, counts, durationMs: Date.now() - started, note };
  } catch (e) {
    if (!(e instanceof Disagreement)) throw e;
    return {
      ...base,
      status: 'failed',
      cases: cases.length,
      counts,
      durationMs: Date.now() - started,
      failure: { seed: opts.seed, path: '', counterexample: 'real-time expiry run', expected: e.expected, actual: e.actual, message: failureMessage(e) },
    };
  }
}
