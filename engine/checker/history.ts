/**
 * A case's history, Jepsen-style: one entry per request sent, holding what was sent, what the
 * model predicted and what came back. Checkers are plain functions over it: the model-agreement
 * check compares prediction and answer; a pack's invariants (PackModel.invariants) add their own
 * checks; coverage (outcome classes, access cells, clause tallies) is read off the same entries.
 */
import { compareOutcomes } from './compare.ts';
import type { HistoryEntry, StepChecker } from './history-entry.ts';

export type { HistoryEntry, StepChecker } from './history-entry.ts';

/** The oracle's check: the target answered what the model predicted. */
export const modelAgreement: StepChecker = {
  name: 'model agreement',
  check: (e) => compareOutcomes(e.predicted, e.observed, e.masked, e.comparedAs, e.hints)?.reason,
};

/** The first checker that rejects the step, with its reason (an invariant's reason is prefixed by its name). */
export function judgeStep(checkers: readonly StepChecker[], entry: HistoryEntry, earlier: readonly HistoryEntry[]): { checker: string; reason: string } | undefined {
  for (const c of checkers) {
    const reason = c.check(entry, earlier);
    if (reason !== undefined) return { checker: c.name, reason: c === modelAgreement ? reason : `invariant "${c.name}": ${reason}` };
  }
  return undefined;
}

