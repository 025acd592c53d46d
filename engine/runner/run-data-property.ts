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
}

/** A disagreement at one step of a case (defined beside checkCase, which raises it too). */
export { CaseMismatch };

export function emptyCounts(): Record<OutcomeClass, number> {
  return { allowed: 0, filtered: 0, rejected: 0, errored: 0 };
}

export async function runDataProperty(env: Environment, property: DataProperty, options: DataRunOptions): Promise<PropertyResult> {
  const started = Date.now();
  const counts = emptyCounts();
  /** The access matrix of the agreed steps: cell key → steps (engine/model/access.ts). */
  const access: Record<string, number> = {};
  const arbitrary = property.cases(options.oracle.settings);
  let stopCounting = false;
  let checked = 0;
  /** When the first disagreement was seen (before shrinking): a mutant's time to kill. */
  let firstFailureAt: number | undefined;
  const workers = options.path ? env.workers.slice(0, 1) : env.workers;
  const lanes = options.path ? { first: 0, total: 1 } : (options.lanes ?? { first: 0, total: workers.length });
  const share = Math.ceil(options.runs / lanes.total);
  const runsOfLane = (lane: number) => (options.path ? 1 : Math.max(0, Math.min(share, options.runs - share * lane)));
  const pastDeadline = () => options.deadline !== undefined && Date.now() >= options.deadline;

  const details = await Promise.all(
    workers.map(async (worker, w) => {
      const lane = lanes.first + w;
      if (runsOfLane(lane) === 0) return undefined;
      // A case interrupted by the time budget keeps running in the background: wait for it, so
      // the worker's connection is idle before anything else uses it.
      let inFlight: Promise<unknown> = Promise.resolve();
      const predicate = fc.asyncProperty(arbitrary, async (testCase: DataCase) => {
        if (pastDeadline()) return;
        const run = checkCase(worker.tx, testCase, options.oracle);
        inFlight = run.catch(() => {});
        const verdict = await run;
        if (verdict.mismatch) {
          stopCounting = true;
          firstFailureAt ??= Date.now();
          throw new CaseMismatch(verdict.mismatch);
        }
        if (!stopCounting && !pastDeadline()) {
          for (const c of verdict.classes) counts[c]++;
          for (const k of verdict.cells) access[k] = (access[k] ?? 0) + 1;
          checked++;
          options.onCase?.(property.id);
        }
      });
      const remaining = options.deadline ? Math.max(1, options.deadline - Date.now()) : undefined;
      const details = await fc.check(predicate, {
        seed: options.seed + lane,
        numRuns: runsOfLane(lane),
        ...(options.path ? { path: options.path } : {}),
        ...(remaining ? { interruptAfterTimeLimit: remaining, markInterruptAsFailure: false } : {}),
      });
      await inFlight;
      return details;
    }),
  ).then((list) => list.filter((d) => d !== undefined));

  // A case cut off by the time budget is not counted; after a failure, fast-check's count (up to the failing run).
  const cases = details.some((d) => d.failed) ? details.reduce((n, d) => n + d.numRuns, 0) : checked;
  const base = { id: property.id, title: property.title, area: 'data' as const, cases, counts, access, durationMs: Date.now() - started, seed: options.seed };
  const failed = details.find((d) => d.failed);
  if (!failed) return { ...base, status: 'passed', ...(details.some((d) => d.interrupted) ? { note: `time budget reached after ${cases} cases` } : {}) };

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
      ...(error.mismatch.masked.length ? { masked: error.mismatch.masked } : {}),
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
