import type { PropertyResult } from '../../engine/runner/result.ts';
import type { SsoConfig } from '../config.ts';
import { SsoClient } from '../client/client.ts';
import type { FrontObservation, LoginDriver } from '../client/driver.ts';
import { findLoginForm, pageSummary } from '../client/html-form.ts';
import { PreflightFailed } from '../client/preflight.ts';
import { FormPostDriver } from '../client/form-driver.ts';
import { BudgetExhausted, PacedHttp } from '../client/http.ts';
import { shareOfBudget } from '../../engine/runner/budget.ts';
import { cutShort, Disagreement, TIME_BUDGET, freshLogin, goodTokenRequest, RunStopped, structuralDiff, tokenDrift, type PropertyContext, type SsoProperty, type TokenDrift } from './kit.ts';
import { S01 } from './s01-model-agreement.ts';
import { S02 } from './s02-code-one-time.ts';
import { S03 } from './s03-code-bound-to-client.ts';
import { S04 } from './s04-redirect-url-exact.ts';
import { S05 } from './s05-client-authentication.ts';
import { S06 } from './s06-code-expiry.ts';
import { S07 } from './s07-login-redirect.ts';
import { S08 } from './s08-logout-redirect.ts';
import { S09 } from './s09-front-channel-leaks.ts';
import { S10 } from './s10-malformed-token-requests.ts';
import { S11 } from './s11-bearer-variants.ts';
import { S12 } from './s12-identity-agreement.ts';
import { S13 } from './s13-replay-revokes-token.ts';
import { S14 } from './s14-codes-unguessable.ts';
import { S15 } from './s15-framing-protection.ts';
import { S16 } from './s16-transport-hygiene.ts';
import { S17 } from './s17-session-rotated.ts';
import { S18 } from './s18-no-structure.ts';
import { S19 } from './s19-login-csrf.ts';
import { S20 } from './s20-markup-reflection.ts';

export type { SsoProperty, Severity } from './kit.ts';

/** Every SSO property, in report order. */
export const SSO_PROPERTIES: readonly SsoProperty[] = [S01, S02, S03, S04, S05, S06, S07, S08, S09, S10, S11, S12, S13, S14, S15, S16, S17, S18, S19, S20];

export interface SsoTarget {
  webUrl: string;
  apiUrl: string;
  /** Test clients and users of the target, and the settings it is expected to follow. */
  config: SsoConfig;
  /** Front-channel driver: 'form' posts the login form directly (emulator); 'browser' uses chromium. */
  driver?: 'form' | 'browser' | LoginDriver;
  /** Hard cap on requests (and browser navigations) for the whole run. */
  maxRequests?: number;
  /** Least ms between two requests. */
  throttleMs?: number;
  /** Longest wait for one answer (default 10 s). */
  timeoutMs?: number;
  /** The target is the policyfuzz emulator: use its control API (clock, reset). Off by default, so a
   * real deployment is never probed for `{api}/__control/`. */
  control?: boolean;
  /** Check expiry in real time (wait past the lifetimes, at most maxWaitMs) when there is no control API. */
  realTime?: { maxWaitMs: number };
}

export interface SsoRunOptions {
  seed?: number;
  numRuns?: number;
  only?: string[];
  /** Replay path of a reported failure (use with `only` naming that one property). */
  path?: string;
  /** Stop early (Ctrl-C, SIGTERM): the property under way is reported cut short (PARTIAL), none after it runs. */
  signal?: AbortSignal;
  /** The time budget's end (epoch ms): each property gets its share of what is left; one cut short is PARTIAL, one never started NOT REACHED. */
  deadline?: number;
  /** Each property's result as soon as it is known (progress). */
  onResult?: (result: PropertyResult) => void;
}

/** Run the SSO properties against a target; one PropertyResult per property, area 'sso'. */
export async function runSsoProperties(target: SsoTarget, options: SsoRunOptions = {}): Promise<PropertyResult[]> {
  const known = new Set(SSO_PROPERTIES.map((p) => p.id));
  const unknown = (options.only ?? []).filter((id) => !known.has(id));
  if (unknown.length) throw new Error(`unknown SSO property id(s): ${unknown.join(', ')} (known: ${[...known].join(', ')})`);
  const selected = options.only?.length ? SSO_PROPERTIES.filter((p) => options.only!.includes(p.id)) : SSO_PROPERTIES;
  const seed = options.seed ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  const numRuns = options.numRuns ?? 25;

  const http = new PacedHttp({ maxRequests: target.maxRequests, throttleMs: target.throttleMs, timeoutMs: target.timeoutMs });
  const client = new SsoClient(stripSlash(target.apiUrl), http);
  const webUrl = stripSlash(target.webUrl);
  const driver: LoginDriver =
    typeof target.driver === 'object'
      ? target.driver
      : target.driver === 'browser'
        ? await (await import('../client/browser-driver.ts')).BrowserDriver.launch(webUrl, target.config.loginPage, http)
        : new FormPostDriver(webUrl, http, target.config.loginPage);
  const control = target.control === true;
  if (control && !(await client.controlAvailable())) {
    throw new PreflightFailed(`--control-api: ${stripSlash(target.apiUrl)}/__control/health does not answer as the policyfuzz emulator; leave the flag off for a real deployment`);
  }
  let browsers = 0;
  const ctx: PropertyContext = { config: target.config, client, driver, http, webUrl, control, newBrowser: () => `browser-${++browsers}`, ...(target.realTime ? { realTime: target.realTime } : {}) };

  const results: PropertyResult[] = [];
  try {
    const drift = await preflightLogin(ctx);
    await driver.endCase?.();
    // A success answer of auth.token in another shape than the spec's (a renamed field) is one
    // finding, of a must: S12 (identity from auth.token) reports it, or the first selected must
    // that reads the token when S12 is not run; the others that read it could not run and say why.
    const driftOwner = drift ? (selected.find((p) => p.id === 'S12') ?? selected.find((p) => p.needsTokenResult && p.severity === 'M')) : undefined;
    const signal = options.signal ? { signal: options.signal } : {};
    const runOnce = (p: SsoProperty, deadline: { deadline: number } | object) => p.run(ctx, { seed, numRuns, afterCase: async () => driver.endCase?.(), ...signal, ...deadline, ...(options.path ? { path: options.path } : {}) });
    /** Cut short by their share of the budget: run again once every property had its share (runAgainWithinBudget). */
    const cutByShare: CutByShare[] = [];
    for (const [i, p] of selected.entries()) {
      if (options.signal?.aborted) break;
      const started = Date.now();
      if (drift && p.needsTokenResult) {
        results.push(p === driftOwner ? driftFinding(p, drift, ctx, seed) : { id: p.id, title: p.title, area: 'sso', status: 'error', cases: 0, counts: {}, durationMs: 0, seed, note: `could not run: it reads auth.token's access token, and ${drift.message.replace(/^schema drift: /, '')} (${driftOwner ? `${driftOwner.id} reports the drift` : 'S12 reports the drift; run it'})` });
        options.onResult?.(results.at(-1)!);
        continue;
      }
      if (options.deadline !== undefined && started >= options.deadline) {
        results.push(cutShort({ id: p.id, title: p.title, area: 'sso', counts: {}, durationMs: 0, seed }, 0, numRuns, TIME_BUDGET));
        options.onResult?.(results.at(-1)!);
        continue;
      }
      try {
        // A property that ends early leaves its time to those after it.
        const deadline = options.deadline !== undefined ? { deadline: shareOfBudget(options.deadline, selected.length - i, started) } : {};
        const r = await runOnce(p, deadline);
        results.push(r);
        if (r.stopped === TIME_BUDGET) cutByShare.push({ index: results.length - 1, again: (d) => runOnce(p, { deadline: d }) });
        else options.onResult?.(r);
        await driver.endCase?.();
      } catch (e) {
        if (e instanceof RunStopped || options.signal?.aborted) {
          // A stop inside a property's own wait (S06's real-time wait): nothing of it completed.
          results.push(cutShort({ id: p.id, title: p.title, area: 'sso', counts: {}, durationMs: Date.now() - started, seed }, 0, numRuns, 'interrupted'));
          options.onResult?.(results.at(-1)!);
          break;
        }
        if (e instanceof BudgetExhausted) {
          results.push(cutShort({ id: p.id, title: p.title, area: 'sso', counts: {}, durationMs: Date.now() - started, seed }, 0, numRuns, e.message));
          options.onResult?.(results.at(-1)!);
          continue;
        }
        results.push({ id: p.id, title: p.title, area: 'sso', status: 'error', cases: 0, counts: {}, durationMs: Date.now() - started, seed, note: e instanceof Error ? e.message : String(e) });
        options.onResult?.(results.at(-1)!);
      }
    }
    if (options.deadline !== undefined) await runAgainWithinBudget(results, cutByShare, options.deadline, () => options.signal?.aborted === true, async () => void (await driver.endCase?.()));
    for (const { index } of cutByShare) options.onResult?.(results[index]!);
  } finally {
    if (typeof target.driver !== 'object') await driver.close();
  }
  return results;
}

export interface CutByShare {
  /** Its place in the results. */
  index: number;
  /** Runs the property again from its first case, until `deadline`. */
  again: (deadline: number) => Promise<PropertyResult>;
}

/**
 * Each property gets an equal share of the budget left when it starts, so a slow one early in the
 * list (S01, S02) was cut short (PARTIAL) while those after it ended early and the half finished
 * with time to spare. Once every property had its share, those their share cut short run again,
 * each with an equal share of what is left: from their first case (the same seed draws the same
 * cases, then more), keeping the run that got further (or found something). Nothing runs past the
 * budget's end or after a stop.
 */
export async function runAgainWithinBudget(results: PropertyResult[], cut: readonly CutByShare[], deadline: number, stopped: () => boolean, afterEach: () => Promise<void> = async () => {}, now: () => number = Date.now): Promise<void> {
  for (const [i, { index, again }] of cut.entries()) {
    const started = now();
    if (stopped() || started >= deadline) return;
    try {
      const second = await again(shareOfBudget(deadline, cut.length - i, started));
      const first = results[index]!;
      if (second.status === 'failed' || second.cases > first.cases) results[index] = second;
    } catch (e) {
      // Its first run's result stands; the second run's error is named there, never lost.
      const first = results[index]!;
      const said = `running again within the budget failed: ${(e as Error).message.split('\n')[0]}`;
      results[index] = { ...first, note: first.note ? `${first.note}; ${said}` : said };
    }
    await afterEach();
  }
}

/**
 * Log the first configured user in to the first client before any property runs, and redeem the
 * code, so both URLs are known to answer. A driver that cannot log in would make every property
 * fail for one reason, so this ends the run (exit 2) and says what the page showed; a URL that
 * does not answer at all ends it with a TransportError (its one line names the cause and the fix).
 * Any redirect to the Redirect URL with one code is a login, whatever else it carries: the
 * properties judge the rest. How the exchange goes is theirs to judge too.
 */
export async function preflightLogin(ctx: PropertyContext): Promise<TokenDrift | null> {
  const client = ctx.config.clients[0]!;
  const user = ctx.config.users[0]!;
  try {
    const { code } = await freshLogin(ctx, client, user);
    const { reply } = await ctx.client.exchange(goodTokenRequest(client, code));
    return tokenDrift(reply);
  } catch (e) {
    if (!(e instanceof Disagreement)) throw e;
    const seen = e.actual as FrontObservation;
    const what =
      seen.kind === 'redirect'
        ? `a ${seen.status} redirect to ${seen.location}`
        : `a ${seen.status} page: ${pageSummary(seen.body ?? '')}${seen.body !== undefined && ctx.driver.name === 'form-post' ? `; ${formHint(seen.body, ctx)}` : ''}`;
    const fix =
      seen.kind === 'redirect'
        ? `Check ${client.appId}'s redirectUrl in the config (a login must be sent to ${client.redirectUrl} with one code)`
        : "Check the users' passwords and the loginPage field names (usernameField/passwordField, or the selectors with --browser) in the config";
    throw new PreflightFailed(`preflight login failed: logging in ${user.username} to ${client.appId} at ${ctx.webUrl}/login?app=${client.appId} gave ${what}. ${fix}; no property was run.`);
  }
}

/** The drift the preflight exchange met, as the one finding of the property that reports it. */
function driftFinding(p: SsoProperty, drift: TokenDrift, ctx: PropertyContext, seed: number): PropertyResult {
  const client = ctx.config.clients[0]!;
  const user = ctx.config.users[0]!;
  return {
    id: p.id,
    title: p.title,
    area: 'sso',
    status: 'failed',
    cases: 1,
    counts: { 'schema-drift': 1 },
    durationMs: 0,
    seed,
    note: "met by the preflight exchange; the other properties that read auth.token's answer could not run",
    failure: {
      seed,
      path: '',
      counterexample: `preflight: log ${user.username} in to ${client.appId} and exchange the code`,
      expected: drift.expected,
      actual: drift.actual,
      message: [drift.message, 'diff of field types (expected → observed):', ...structuralDiff(drift.expected, drift.actual).map((l) => `  ${l}`)].join('\n'),
    },
  };
}

function formHint(html: string, ctx: PropertyContext): string {
  const { usernameField, passwordField } = ctx.config.loginPage;
  const form = findLoginForm(html, ctx.webUrl, passwordField);
  if (!form) return `no form with a password input named "${passwordField}" (loginPage.passwordField)`;
  return form.inputNames.includes(usernameField) ? `the form was submitted with "${usernameField}" and "${passwordField}"` : `the form has no input named "${usernameField}" (loginPage.usernameField); its inputs: ${form.inputNames.join(', ')}`;
}

export function severityOf(id: string): 'M' | 'S' | undefined {
  return SSO_PROPERTIES.find((p) => p.id === id)?.severity;
}

function stripSlash(u: string): string {
  return u.replace(/\/+$/, '');
}
