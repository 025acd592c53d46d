/**
 * Runs one data-layer property with fast-check on every worker at once: worker w checks its
 * share of the runs with seed + w, so the same seed and worker count give the same cases and
 * verdicts. The first disagreement is shrunk and reported with the seed and path that replay it.
 */
import fc from 'fast-check';
import type { OutcomeClass } from '../model/outcome.ts';
import type { Oracle } from '../pack.ts';
import { FixtureError } from '../errors.ts';
import { CaseMismatch, checkCase } from './check-case.ts';
import type { DataCase } from './data-case.ts';
import type { DataProperty } from './data-property.ts';
import type { Environment } from './environment.ts';
import type { PropertyResult } from './result.ts';

export interface DataRunOptions {
  seed: number;
  runs: number;
  /** The pack's model with the run's settings. */
  oracle: Oracle;
  /** Replay exactly one case: the seed and path a failure printed (uses the first worker). */
  path?: string;
  /** Stop generating at this time (epoch ms); what ran is reported. */
  deadline?: number;
  /**
   * The runs are split into lanes, lane l checking its share with seed + l. By default there is
   * one lane per worker; a shard of a larger run takes lanes first…first+workers-1 of `total`, so
   * n shards of W workers check exactly the cases of one run with n·W workers.
   */
  lanes?: { first: number; total: number };
  onCase?: (propertyId: string) => void;
  /** True once the run is interrupted (a signal): stop generating, keep what completed. */
  stop?: () => boolean;
  /**
   * The first `skipFirst` runs (split over the lanes as `runs` are) were checked by an earlier
   * pass with the same seed: the same cases, so they are not sent again (a budget's first pass).
   */
  skipFirst?: number;
}

/** A disagreement at one step of a case (defined beside checkCase, which raises it too). */
export { CaseMismatch };

export function emptyCounts(): Record<OutcomeClass, number> {
  return { allowed: 0, filtered: 0, rejected: 0, errored: 0 };
}

export async function runDataProperty(env: Environment, property: DataProperty, options: DataRunOptions): Promise<PropertyResult> {
  const started = Date.now();
  const counts = emptyCounts();
  const arbitrary = property.cases(options.oracle.settings);
  let stopCounting = false;
  let checked = 0;
  /** When the first disagreement was seen (before shrinking): a mutant's time to kill. */
  let firstFailureAt: number | undefined;
  const workers = options.path ? env.workers.slice(0, 1) : env.workers;
  const lanes = options.path ? { first: 0, total: 1 } : (options.lanes ?? { first: 0, total: workers.length });
  const share = Math.ceil(options.runs / lanes.total);
  const runsOfLane = (lane: number) => (options.path ? 1 : Math.max(0, Math.min(share, options.runs - share * lane)));
  const skipShare = Math.ceil((options.skipFirst ?? 0) / lanes.total);
  const skipOfLane = (lane: number) => (options.path ? 0 : Math.max(0, Math.min(skipShare, (options.skipFirst ?? 0) - skipShare * lane)));
  const pastDeadline = () => options.deadline !== undefined && Date.now() >= options.deadline;
  const stopping = () => options.stop?.() === true || pastDeadline();
  let skipped = 0;

  const details = await Promise.all(
    workers.map(async (worker, w) => {
      const lane = lanes.first + w;
      if (runsOfLane(lane) === 0) return undefined;
      let seen = 0;
      const skip = skipOfLane(lane);
      const predicate = fc.asyncProperty(arbitrary, async (testCase: DataCase) => {
        if (seen++ < skip) return void skipped++;
        // Out of time or interrupted: end fast-check's run here (an interruption, not a failure);
        // the case in flight, if any, has completed.
        if (stopping()) throw new fc.PreconditionFailure(true);
        const verdict = await checkCase(worker.tx, testCase, options.oracle);
        if (verdict.mismatch) {
          stopCounting = true;
          firstFailureAt ??= Date.now();
          throw new CaseMismatch(verdict.mismatch);
        }
        if (!stopCounting) {
          for (const c of verdict.classes) counts[c]++;
          checked++;
          options.onCase?.(property.id);
        }
      });
      return fc.check(predicate, {
        seed: options.seed + lane,
        numRuns: runsOfLane(lane),
        ...(options.path ? { path: options.path } : {}),
      });
    }),
  ).then((list) => list.filter((d) => d !== undefined));

  // A failure has a counterexample. fast-check also reports "failed" for a lane interrupted
  // before its first case: that is a property not reached, never a failure.
  const failed = details.find((d) => d.failed && d.counterexample !== null);
  // After a failure, fast-check's count (up to the failing run), less the cases an earlier pass checked.
  const cases = failed ? details.reduce((n, d) => n + d.numRuns, 0) - skipped : checked;
  const stopped = details.some((d) => d.interrupted) ? (options.stop?.() ? ('interrupted' as const) : ('time budget' as const)) : undefined;
  const base = { id: property.id, title: property.title, area: 'data' as const, cases, counts, durationMs: Date.now() - started, seed: options.seed, planned: options.path ? 1 : workers.reduce((n, _, w) => n + runsOfLane(lanes.first + w), 0), ...(stopped ? { stopped } : {}) };
  if (!failed) return { ...base, status: 'passed', ...(stopped ? { note: `${stopped === 'interrupted' ? 'interrupted' : 'time budget reached'} after ${cases} cases` } : {}) };

  const error = failed.errorInstance;
  const counterexample = failed.counterexample?.[0] as DataCase | undefined;
  if (error instanceof FixtureError) {
    return { ...base, status: 'error', note: `harness error: ${error.message} (row ${JSON.stringify(error.row)})` };
  }
  if (!(error instanceof CaseMismatch)) {
    return { ...base, status: 'error', note: `harness error: ${error instanceof Error ? error.message : String(error)}` };
  }
  return {
    ...base,
    status: 'failed',
    ...(firstFailureAt !== undefined ? { firstFailureMs: firstFailureAt - started } : {}),
    failure: {
      seed: failed.seed,
      path: failed.counterexamplePath ?? '',
      counterexample,
      expected: error.mismatch.expected,
      actual: { outcome: error.mismatch.actual, response: error.mismatch.response },
      message: error.message,
      step: error.mismatch.step,
    },
  };
}

/** How many cases the given lanes check (what a progress bar should expect). */
export function plannedRuns(runs: number, lanes: { first: number; count: number; total: number }): number {
  const share = Math.ceil(runs / lanes.total);
  let n = 0;
  for (let l = lanes.first; l < lanes.first + lanes.count; l++) n += Math.max(0, Math.min(share, runs - share * l));
  return n;
}
