import fc from 'fast-check';
import type { PropertyResult } from '../../engine/runner/result.ts';
import { parseTokenResponse } from '../client/client.ts';
import { expectThat, freshLogin, freshToken, goodTokenRequest, isUniformFailure, notApplicable, pickClient, pickUser, replySummary, runFcProperty, type PropertyContext, type PropertyRunOptions, type SsoProperty } from './kit.ts';

/**
 * A code past its lifetime fails (and the lifetime is at most 10 minutes). With the emulator's
 * control API the clock is moved; with --real-time the run waits, once, past the lifetime.
 */
export const S06: SsoProperty = {
  id: 'S06',
  title: 'A code past its lifetime (setting codeLifetimeSeconds, at most 10 min) fails; in real time also a token past a short tokenLifetimeSeconds',
  severity: 'M',
  run: async (ctx, opts) => {
    if (!ctx.control && ctx.realTime) return realTimeExpiry(ctx, opts);
    if (!ctx.control) return notApplicable(S06, opts.seed, 'time cannot pass: the target has no control API (--control, emulator only); add --real-time to wait past codeLifetimeSeconds');
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
        expectThat(isUniformFailure(reply), `a code ${lifetimeMs + extraMs} ms old (lifetime ${lifetimeMs} ms) must fail`, { status: 200, body: { ok: false, error: 'AUTH0001' } }, replySummary(reply), {
          name: 'codeLifetimeSeconds',
          advice: 'raise it if your codes live longer (at most 600)',
        });
      },
    );
  },
};

/** Margin past a lifetime, for clock skew between the checker and the service. */
const MARGIN_MS = 1000;

/**
 * Real-time mode: log in a few times, wait once (announced, bounded by --max-wait) past the code
 * lifetime, and past the token lifetime when that is short enough, then use them all.
 */
async function realTimeExpiry(ctx: PropertyContext, opts: PropertyRunOptions): Promise<PropertyResult> {
  const rt = ctx.realTime!;
  const { codeLifetimeSeconds, tokenLifetimeSeconds } = ctx.config.settings;
  const codeWait = codeLifetimeSeconds * 1000 + MARGIN_MS;
  if (codeWait > rt.maxWaitMs) return notApplicable(S06, opts.seed, `codeLifetimeSeconds ${codeLifetimeSeconds} s is longer than --max-wait allows`);
  const tokenWait = tokenLifetimeSeconds * 1000 + MARGIN_MS;
  const withTokens = tokenWait <= rt.maxWaitMs;
  const started = Date.now();
  const base = { id: S06.id, title: S06.title, area: 'sso' as const, seed: opts.seed };
  const counts: Record<string, number> = {};
  const add = (k: string) => (counts[k] = (counts[k] ?? 0) + 1);
  // Which client and user log in is drawn from the seed, as in every other property.
  const n = Math.max(1, Math.min(opts.numRuns, 3));
  const picks = fc.sample(fc.record({ client: pickClient(ctx), user: pickUser(ctx) }), { seed: opts.seed, numRuns: n });
  const codes: { client: (typeof picks)[number]['client']; code: string }[] = [];
  const tokens: string[] = [];
  for (const { client, user } of picks) {
    codes.push({ client, code: (await freshLogin(ctx, client, user)).code });
    if (withTokens) tokens.push((await freshToken(ctx, client, user)).token);
  }
  const waitMs = withTokens ? Math.max(codeWait, tokenWait) : codeWait;
  rt.announce(`S06: waiting ${(waitMs / 1000).toFixed(1)} s in real time past codeLifetimeSeconds (${codeLifetimeSeconds} s)${withTokens ? ` and tokenLifetimeSeconds (${tokenLifetimeSeconds} s)` : ''}`);
  await new Promise((r) => setTimeout(r, waitMs));
  const fail = (message: string, counterexample: unknown, actual: unknown, setting: string, expected: unknown = { status: 200, body: { ok: false, error: 'AUTH0001' } }): PropertyResult => ({
    ...base,
    status: 'failed',
    cases: codes.length + tokens.length,
    counts,
    durationMs: Date.now() - started,
    failure: { seed: opts.seed, path: '', counterexample, expected, actual, message: `${message} (this differs from setting ${setting}; raise it if your service keeps them longer)` },
  });
  for (const { client, code } of codes) {
    const { reply } = await ctx.client.exchange(goodTokenRequest(client, code));
    const redeemed = parseTokenResponse(reply)?.ok === true;
    add(redeemed ? 'expired-code-accepted' : 'expired-code-refused');
    if (redeemed) return fail(`a code ${(waitMs / 1000).toFixed(1)} s old (codeLifetimeSeconds ${codeLifetimeSeconds}) was redeemed`, { client: client.appId, waitedMs: waitMs }, replySummary(reply), 'codeLifetimeSeconds');
  }
  for (const token of tokens) {
    const reply = await ctx.client.profile([`Bearer ${token}`]);
    add(`expired-token:${reply.status}`);
    if (reply.status !== 401) return fail(`a token ${(waitMs / 1000).toFixed(1)} s old (tokenLifetimeSeconds ${tokenLifetimeSeconds}) still works on user.profile`, { waitedMs: waitMs }, replySummary(reply), 'tokenLifetimeSeconds', { status: 401 });
  }
  return { ...base, status: 'passed', cases: codes.length + tokens.length, counts, durationMs: Date.now() - started, note: `waited ${(waitMs / 1000).toFixed(1)} s in real time` };
}
