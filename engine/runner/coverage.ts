/**
 * A run that never saw a rule allow, or never saw it deny, has not tested it. Per property: a
 * passing property whose cases reached only one side fails with a note saying which. Per
 * clause: each labelled clause of the rule (DataProperty.clauses) is counted on its allowed and
 * refused side, from the model's answers to the case's steps; a run of at least
 * MIN_RUNS_FOR_COVERAGE cases that never reached a clause's side fails, naming the clause. A
 * sharded run is judged once merged (COVERAGE_ON_MERGE_NOTE).
 */
import type { Oracle } from '../pack.ts';
import { predict, type Prediction } from '../model/predict.ts';
import type { DataCase } from './data-case.ts';
import type { Clause } from './data-property.ts';
import type { ClauseCount, PropertyResult } from './result.ts';

export const MIN_RUNS_FOR_COVERAGE = 50;

/** Counts, per clause, the steps that reached its allowed and its refused side. */
export class ClauseTally {
  private readonly counts = new Map<string, ClauseCount>();

  constructor(private readonly clauses: readonly Clause[]) {
    for (const c of clauses) this.counts.set(c.id, { id: c.id, label: c.label, allowed: 0, refused: 0 });
  }

  /**
   * Replays the model over the case (pure, no database) and counts each step's clauses.
   * `known`: the predictions of its first steps, already made by the check (not made again).
   */
  add(testCase: DataCase, oracle: Oracle, known: readonly Prediction[] = []): void {
    if (!this.clauses.length) return;
    let world = testCase.world;
    for (const [i, step] of testCase.steps.entries()) {
      const prediction = known[i] ?? predict(oracle, world, step.caller, step.request);
      for (const clause of this.clauses) {
        const side = clause.side({ step, before: world, outcome: prediction.outcome, settings: oracle.settings });
        if (side) this.counts.get(clause.id)![side]++;
      }
      world = prediction.world;
    }
  }

  result(): ClauseCount[] {
    return [...this.counts.values()];
  }
}

/** The side of a clause from the model's answer: allowed, or refused (filtered, rejected, raised). */
export function sideOf(outcome: { kind: string }): 'allowed' | 'refused' | undefined {
  return outcome.kind === 'allowed' ? 'allowed' : outcome.kind === 'error' ? undefined : 'refused';
}

/**
 * A shard runs a slice of the cases: a clause it never reached may be reached by another shard,
 * so a shard leaves the gate to `merge-reports`, which applies it to the merged tallies.
 */
export const COVERAGE_ON_MERGE_NOTE = 'coverage is judged on the merged shards (merge-reports)';

/** What the gate reads: a run's result, or a property of a (merged) summary. */
interface Gated {
  id: string;
  area: PropertyResult['area'];
  status: PropertyResult['status'];
  cases: number;
  counts: Record<string, number>;
  clauses?: ClauseCount[] | undefined;
  note?: string | null | undefined;
}

export function applyCoverageGate<T extends Gated>(result: T): T {
  if (result.status !== 'passed' || result.area !== 'data' || result.cases < MIN_RUNS_FOR_COVERAGE) return result;
  const allowed = result.counts.allowed ?? 0;
  const denied = (result.counts.filtered ?? 0) + (result.counts.rejected ?? 0);
  if (allowed === 0 || denied === 0) {
    return { ...result, status: 'failed', note: `coverage: generation never reached the ${allowed === 0 ? 'allow' : 'deny'} side of rule ${result.id} in ${result.cases} cases` };
  }
  const unreached = (result.clauses ?? []).flatMap((c) => [...(c.allowed === 0 ? [`${c.id} (${c.label}): allowed`] : []), ...(c.refused === 0 ? [`${c.id} (${c.label}): refused`] : [])]);
  if (unreached.length) return { ...result, status: 'failed', note: `coverage: in ${result.cases} cases generation never reached clause ${unreached.join('; ')}` };
  return result;
}
