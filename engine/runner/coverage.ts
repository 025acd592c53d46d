/**
 * A run that never saw a rule allow, or never saw it deny, has not tested it. Per property: a
 * passing property whose cases reached only one side fails with a note saying which. Per
 * clause: each labelled clause of the rule (DataProperty.clauses) is counted on its allowed and
 * refused side, from the model's answers to the case's steps; a run of at least
 * MIN_RUNS_FOR_COVERAGE cases that never reached a clause's side fails, naming the clause. A
 * sharded run is judged once merged (COVERAGE_ON_MERGE_NOTE).
 */
import type { Oracle } from '../pack.ts';
import type { Prediction } from '../model/predict.ts';
import { casePredictions, predictSteps } from './case-predictions.ts';
import type { DataCase, DataStep } from './data-case.ts';
import type { Clause } from './data-property.ts';
import type { BranchCount, ClauseCount, PropertyResult } from './result.ts';
import { asPropertyBranch, branchesOfProperty, type BranchCatalog } from '../model/branches.ts';
import { parseAccessKey } from '../model/access.ts';

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
    const predictions = casePredictions(testCase, oracle, known);
    for (const [i, step] of testCase.steps.entries()) {
      const prediction = predictions[i];
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

/** The key under which DroppedReach counts a clause's side: `<clause id>:allowed` or `<clause id>:refused`. */
export function clauseReachKey(clauseId: string, side: 'allowed' | 'refused'): string {
  return `${clauseId}:${side}`;
}

/**
 * What the cases a target could not hold would have reached, by the model's answers to their
 * steps (pure, no database): the rule's sides (`allow`, `deny`) and each clause's (clauseReachKey).
 * The coverage gate excuses an unreached side or clause as "not checked on this target" only when
 * dropped cases would have reached it; an unrelated drop excuses nothing.
 */
export class DroppedReach {
  private readonly counts: Record<string, number> = {};

  constructor(private readonly clauses: readonly Clause[]) {}

  /**
   * `dropped`: the steps left out of a case sent without some of its requests; absent: every step.
   * A step after a dropped one counts too: it was sent, but on a world without the dropped step's
   * effect (a read-back of a row never inserted), so what it would have reached went unchecked.
   */
  add(testCase: DataCase, oracle: Oracle, dropped?: ReadonlySet<DataStep>): void {
    const bump = (key: string) => (this.counts[key] = (this.counts[key] ?? 0) + 1);
    const firstDropped = dropped ? testCase.steps.findIndex((s) => dropped.has(s)) : 0;
    let world = testCase.world;
    for (const [i, made] of predictSteps(oracle, testCase).entries()) {
      // The model cannot answer this step: nothing it would have reached is known from here.
      if ('thrown' in made) break;
      const step = testCase.steps[i];
      const { outcome } = made.prediction;
      if (firstDropped >= 0 && i >= firstDropped) {
        const side = sideOf(outcome);
        if (side) bump(side === 'allowed' ? 'allow' : 'deny');
        for (const clause of this.clauses) {
          const clauseSide = clause.side({ step, before: world, outcome, settings: oracle.settings });
          if (clauseSide) bump(clauseReachKey(clause.id, clauseSide));
        }
      }
      world = made.prediction.world;
    }
  }

  result(): Record<string, number> {
    return { ...this.counts };
  }
}

/**
 * Model-branch coverage of one property (engine/model/branches.ts): of the branches the pack's
 * catalog gives the property (ids `<property>.…`), how many cases took each. Read off the
 * predictions of the case's steps, those the check made and the model's answers to the rest.
 */
export class BranchTally {
  private readonly counts = new Map<string, BranchCount>();
  /** A branch id as the model records it → this property's id for it (null: not one of its branches); asked once per id, not once per case. */
  private readonly ownId = new Map<string, string | null>();

  constructor(
    private readonly catalog: BranchCatalog | undefined,
    private readonly propertyId: string,
  ) {
    for (const id of branchesOfProperty(catalog, propertyId)) this.counts.set(id, { id, label: catalog![id], taken: 0 });
  }

  get known(): boolean {
    return this.counts.size > 0;
  }

  /** Counts a case once per branch it took; returns the branches it took first in this tally. */
  add(predictions: readonly Pick<Prediction, 'branches'>[]): string[] {
    const taken = new Set<string>();
    for (const p of predictions) {
      for (const id of p.branches ?? []) {
        let own = this.ownId.get(id);
        if (own === undefined) this.ownId.set(id, (own = asPropertyBranch(this.catalog, this.propertyId, id) ?? null));
        if (own !== null) taken.add(own);
      }
    }
    const fresh: string[] = [];
    for (const id of taken) {
      const c = this.counts.get(id);
      if (!c) continue;
      if (c.taken === 0) fresh.push(id);
      c.taken++;
    }
    return fresh;
  }

  untaken(): string[] {
    return [...this.counts.values()].filter((c) => c.taken === 0).map((c) => c.id);
  }

  result(): BranchCount[] {
    return [...this.counts.values()].map((c) => ({ ...c }));
  }
}

/** The branches of a (merged) tally never taken, named: what the console and the summary's readers show. */
export function untakenBranches(branches: readonly BranchCount[] | undefined): string[] {
  return (branches ?? []).filter((b) => b.taken === 0).map((b) => b.id);
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
  oneSided?: 'allow' | 'deny' | undefined;
  note?: string | null | undefined;
  /** Requests by access cell (engine/model/access.ts): an rpc's command is `execute`. */
  access?: Record<string, number> | undefined;
  /** Cases drawn that the target could not hold, by reason (a project's schema). */
  dropped?: Record<string, number> | undefined;
  /** What those cases would have reached (DroppedReach), and the steps a cut left unjudged. */
  droppedReach?: Record<string, number> | undefined;
  /** Cases cut before a swept step the target could not hold, by reason. */
  cut?: Record<string, number> | undefined;
}

/** True when cases the target could not hold would have reached this side or clause side (a DroppedReach key). */
function reachedByDrops(result: Gated, key: string): boolean {
  return (result.droppedReach?.[key] ?? 0) > 0;
}

/**
 * A side or clause the target cannot hold the cases of (a column it lacks, a NOT NULL the model's
 * rows break) is unreached by the target's schema, not by the generator: named, with the main
 * reason cases were dropped, and not a failure (no case disagreed). Only what the dropped cases
 * would have reached (reachedByDrops) is excused so.
 */
function notCheckedOnTarget(result: Gated, unreached: string): string {
  const reasons = Object.entries({ ...result.cut, ...result.dropped }).sort((a, b) => b[1] - a[1]);
  return `not checked on this target: ${unreached} (its cases were ${Object.keys(result.cut ?? {}).length ? 'dropped or cut' : 'dropped'}${reasons.length ? `, mostly as ${reasons[0][0]}` : ''})`;
}

function withNote<T extends Gated>(result: T, note: string): T {
  return { ...result, note: result.note ? `${result.note}; ${note}` : note };
}

/** Whether the property's requests called functions (rpc): their refusals may be answers, not errors. */
function callsFunctions(result: Gated): boolean {
  return Object.keys(result.access ?? {}).some((key) => parseAccessKey(key).command === 'execute');
}

/**
 * A function that refuses in its answer (a 200 changing nothing: `void`, `false`, an empty set)
 * is its rule's deny side once `predict` says so; predicted `allowed`, no case ever counts as
 * refused (alana-notes' `update_note` with another session's id, docs/real-world.md).
 */
const SILENT_REFUSAL_HINT = "; a function refusing in its answer (a 200 that changes nothing) is that side when its predict returns `filtered(rows, n)` there (docs/function-models.md)";

export function applyCoverageGate<T extends Gated>(result: T): T {
  if (result.status !== 'passed' || result.area !== 'data' || result.cases < MIN_RUNS_FOR_COVERAGE) return result;
  const allowed = result.counts.allowed ?? 0;
  const denied = (result.counts.filtered ?? 0) + (result.counts.rejected ?? 0);
  const unreachedSide = allowed === 0 && result.oneSided !== 'deny' ? 'allow' : denied === 0 && result.oneSided !== 'allow' ? 'deny' : undefined;
  if (unreachedSide) {
    if (reachedByDrops(result, unreachedSide)) return withNote(result, notCheckedOnTarget(result, `the ${unreachedSide} side of rule ${result.id}`));
    const byDesign = `a rule with no ${unreachedSide} side by design says so with \`oneSided: '${unreachedSide === 'allow' ? 'deny' : 'allow'}'\` in its defineProperty${unreachedSide === 'deny' && callsFunctions(result) ? SILENT_REFUSAL_HINT : ''}`;
    return { ...result, status: 'failed', note: `coverage: generation never reached the ${unreachedSide} side of rule ${result.id} in ${result.cases} cases (${byDesign})` };
  }
  // A clause no sent case reached on either side, while dropped ones reached it: the target holds
  // none of its cases (every upload names a column it lacks), so neither side is the generator's miss.
  const unheld = (c: ClauseCount) => c.allowed === 0 && c.refused === 0 && (['allowed', 'refused'] as const).some((side) => reachedByDrops(result, clauseReachKey(c.id, side)));
  const unreached = (result.clauses ?? []).flatMap((c) => (['allowed', 'refused'] as const).filter((side) => c[side] === 0).map((side) => ({ key: clauseReachKey(c.id, side), text: `${c.id} (${c.label}): ${side}`, unheld: unheld(c) })));
  const missed = unreached.filter((u) => !u.unheld && !reachedByDrops(result, u.key));
  const heldBack = unreached.filter((u) => u.unheld || reachedByDrops(result, u.key));
  const excused = heldBack.length ? notCheckedOnTarget(result, `clause ${heldBack.map((u) => u.text).join('; ')}`) : undefined;
  if (missed.length) return { ...result, status: 'failed', note: [`coverage: in ${result.cases} cases generation never reached clause ${missed.map((u) => u.text).join('; ')}`, ...(excused ? [excused] : [])].join('; ') };
  return excused ? withNote(result, excused) : result;
}
