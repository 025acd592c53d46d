/**
 * Run profiles and the defaults of `policyfuzz fuzz`, in one place. An option given on the
 * command line overrides its profile's value.
 *
 * - pr (the default, and `npm run fuzz`): pre-merge. Every data-layer property at 300 cases on
 *   2 workers and every SSO property at 25 cases against the bundled emulator, with a 45 s
 *   budget for both halves (the data layer stops generating early enough to leave the SSO half
 *   its share, scaled by the present load once past its minimums: ssoSlowdown), so the whole job (server start, migrations, runs, reports) stays under 60 s on
 *   the reference database however many properties there are. Early stop is on: a saturated
 *   property stops at its minimum (100); on the reference's mutants it loses none of the kills the
 *   full 300 cases make (bench/early-stop-kills.ts, docs/fuzzing-workflow.md).
 * - nightly: long. Every property, data layer and SSO (against the bundled emulator), 20× the
 *   cases, 4 workers, up to 30 minutes of generation; usually split with --shard.
 */
import { availableParallelism, loadavg } from 'node:os';
import { UsageError } from '../engine/errors.ts';

export const PROFILE_NAMES = ['pr', 'nightly'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export interface Profile {
  description: string;
  /** Cases per data-layer property (over all shards and workers). */
  runs: number;
  workers: number;
  /** Generation stops at this budget (ms); what ran is reported. */
  timeBudgetMs: number;
  /** Cases every property gets first under the budget; a property cut short below it is PARTIAL. */
  minCases: number;
  /** Run the SSO properties against the bundled emulator. */
  sso: boolean;
  /** Cases per SSO property. */
  ssoRuns: number;
  /** A data-layer property past its minimum stops once saturated (engine/runner/budget.ts earlyStopReason); `--early-stop` / `--no-early-stop`. */
  earlyStop: boolean;
}

export const PROFILES: Record<ProfileName, Profile> = {
  pr: { description: 'pre-merge: data layer and SSO, under 60 s on the reference database', runs: 300, workers: 2, timeBudgetMs: 45_000, sso: true, minCases: 100, ssoRuns: 25, earlyStop: true },
  nightly: { description: 'nightly: every property (data layer and SSO), many more cases', runs: 6000, workers: 4, timeBudgetMs: 30 * 60_000, minCases: 1000, sso: true, ssoRuns: 200, earlyStop: false },
};

export const DEFAULT_PROFILE: ProfileName = 'pr';

/**
 * Time the SSO half is left from a shared budget: the emulator's start plus its cases. Measured
 * (issue #27) on the shared 2-core machine under load, `fuzz --seed 1 --timings`: SSO-only runs
 * (`--only S01,…,S20`) at --sso-runs 1/25/100 took 0.36–0.55 s / 1.4–3.0 s / 3.4–6.1 s, so about
 * 0.5 s to start and 1.5–3 ms a case; the SSO half of full pr runs (20 × 25 cases) took 2.3–6.0 s,
 * median 4.8 s, with the machine twice as slow as idle. 1 s + 10 ms a case covers the slowest.
 */
const SSO_START_MS = 1000;
const SSO_MS_PER_CASE = 10;
export function ssoReserveMs(properties: number, runs: number, slowdown = 1): number {
  return Math.round((SSO_START_MS + properties * runs * SSO_MS_PER_CASE) * slowdown);
}

/** The load at which the reserve above was measured: 2 runnable tasks a core, the machine twice as slow as idle. */
const CALIBRATED_LOAD_PER_CORE = 2;

/**
 * How much slower than at calibration the SSO half will run now, at least 1: the 1-minute load
 * average a core over the calibrated one (at load 14 on 2 cores the SSO half of pr took about 3.5×
 * its reserve, 16 of 20 properties PARTIAL). POLICYFUZZ_SLOWDOWN (a number ≥ 1) overrides it where
 * the load average misleads (a container sees its host's).
 */
export function ssoSlowdown(env: NodeJS.ProcessEnv = process.env, load = loadavg()[0], cores = availableParallelism()): number {
  return slowdownOverride(env) ?? Math.max(1, load / cores / CALIBRATED_LOAD_PER_CORE);
}

/**
 * Why the data half stopped past its minimums earlier than the budget alone would have: the SSO
 * half's reserve scaled by the load factor (ssoSlowdown), named with where the factor came from
 * and how to override it. Undefined at or below calibrated load (no scaling to name).
 */
export function loadScaledCutNote(slowdown: number, ssoNeedsMs: number, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (slowdown <= 1) return undefined;
  const factor = Math.round(slowdown * 10) / 10;
  const source = slowdownOverride(env) !== undefined ? `POLICYFUZZ_SLOWDOWN=${env.POLICYFUZZ_SLOWDOWN!.trim()}; unset it to follow the load average` : 'from the load average; POLICYFUZZ_SLOWDOWN=1 overrides it';
  return `load-scaled: the data half stopped to leave the SSO half ${Math.round(ssoNeedsMs / 100) / 10} s, its reserve ×${factor} (${source})`;
}

/** POLICYFUZZ_SLOWDOWN when set: a number ≥ 1, else a UsageError (exit 2) naming it; planRun reads it before anything runs. */
export function slowdownOverride(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const text = env.POLICYFUZZ_SLOWDOWN;
  if (text === undefined || text.trim() === '') return undefined;
  const forced = Number(text);
  if (!Number.isFinite(forced) || forced < 1) throw new UsageError(`POLICYFUZZ_SLOWDOWN: "${text}" is not a number ≥ 1 (how many times slower than calibrated the SSO half runs); unset it to follow the load average`);
  return forced;
}

/** `90s`, `20m`, `1h30m`, `1500ms`, or a bare number of seconds → milliseconds. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(t); m; m = re.exec(t)) {
    if (m.index !== consumed) return undefined;
    consumed = m.index + m[0].length;
    total += Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
  }
  return consumed === t.length && consumed > 0 ? Math.round(total) : undefined;
}

export interface Shard {
  /** 1-based, as in a CI matrix: 1/4 … 4/4. */
  index: number;
  count: number;
}

export function parseShard(text: string): Shard | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) return undefined;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return index >= 1 && count >= 1 && index <= count ? { index, count } : undefined;
}
