/**
 * Re-running a saved failure. A data-layer failure needs no fast-check at all: its case is plain
 * data and goes straight to checkCase. Verdicts: FIXED only after `times` clean replays in a row,
 * STILL FAILING when every replay fails, FLAKY when some do and some do not.
 */
import type { Oracle } from '../pack.ts';
import { checkCase, type StepMismatch } from '../runner/check-case.ts';
import type { Worker } from '../runner/environment.ts';
import { dataCaseOf, type FailureRecord } from './schema.ts';

export type ReplayVerdict = 'FIXED' | 'STILL FAILING' | 'FLAKY';

import { CLEAN_REPLAYS_FOR_FIXED } from './clean-replays.ts';

export { CLEAN_REPLAYS_FOR_FIXED } from './clean-replays.ts';

export interface ReplayOutcome {
  verdict: ReplayVerdict;
  /** One entry per replay: the disagreement it showed, or undefined when it was clean. */
  replays: Array<StepMismatch | undefined>;
}

export function verdictOf(replays: ReadonlyArray<unknown>): ReplayVerdict {
  const failing = replays.filter((r) => r !== undefined).length;
  return failing === 0 ? 'FIXED' : failing === replays.length ? 'STILL FAILING' : 'FLAKY';
}

/** Replays one saved data-layer case once; the disagreement, or undefined when model and database agree. */
export async function replayDataCaseOnce(worker: Worker, record: FailureRecord, oracle: Oracle): Promise<StepMismatch | undefined> {
  const verdict = await checkCase(worker.tx, dataCaseOf(record), oracle);
  await worker.tx.flush();
  return verdict.mismatch;
}

export async function replayDataFailure(worker: Worker, record: FailureRecord, oracle: Oracle, times = CLEAN_REPLAYS_FOR_FIXED): Promise<ReplayOutcome> {
  const replays: Array<StepMismatch | undefined> = [];
  for (let i = 0; i < times; i++) replays.push(await replayDataCaseOnce(worker, record, oracle));
  return { verdict: verdictOf(replays), replays };
}
