/**
 * A data-layer property: a rule of the spec (R01…R20), the tables it needs, and a generator of
 * cases aimed at it. Checking is the same for all: the model predicts, the database answers,
 * they must agree (check-case.ts).
 */
import fc from 'fast-check';
import type { DataCase, DataStep } from './data-case.ts';
import type { Outcome } from '../model/outcome.ts';
import type { World } from '../model/world.ts';

/**
 * The run's oracle as a case generator receives it: engine/pack.ts's Oracle (not named here, since
 * pack.ts imports this file): the run's settings, the pack's model, and what the target adds.
 */
export interface RunOracle<S = any> {
  settings: S;
  model: object;
}

/**
 * A property's cases for these settings. `oracle`: the run's (the same settings, plus what the
 * target adds: its ON DELETE actions, db-max-rows); a generator that predicts earlier steps to
 * shape later ones (a token's claims) predicts with it, so its predictions are the case's own.
 * Absent (a sample outside a run): the pack's model with the settings.
 */
export type CasesOf<S> = (settings: S, oracle?: RunOracle<S>) => fc.Arbitrary<DataCase>;

/** What a clause sees of one step: the request, the world before it, and the model's answer. */
export interface ClauseStep<S = any> {
  step: DataStep;
  before: World;
  outcome: Outcome;
  settings: S;
}

/**
 * One labelled clause of a rule ("a buyer attaching payment slips", "the remarks cap"): which
 * steps exercise it, and on which side — `allowed` (the rule lets it through) or `refused`
 * (denied, filtered or raised). The run counts both sides; a run whose cases never reached a
 * side has not tested the clause (coverage.ts).
 */
export interface Clause<S = any> {
  id: string;
  label: string;
  /** undefined: the step does not exercise the clause. */
  side: (s: ClauseStep<S>) => 'allowed' | 'refused' | undefined;
}

/** Cases aimed at one branch of the model. */
export interface Guide<S = any> {
  branch: string;
  cases: CasesOf<S>;
}

export interface DataProperty<S = any> {
  id: string;
  rule: number;
  title: string;
  /** Tables (and functions) the rule is about; a target without them makes the rule not applicable. */
  tables: string[];
  functions?: string[];
  cases: CasesOf<S>;
  /** The rule's labelled clauses, each to be reached on both sides (coverage.ts). */
  clauses?: Clause<S>[];
  /**
   * A rule with one side by design ("readable by everyone": nothing is ever denied): the coverage
   * gate asks only for this side. Absent: both sides must be reached.
   */
  oneSided?: 'allow' | 'deny';
  /**
   * Generator variants known to reach a branch of the model (engine/model/branches.ts) that
   * plain generation reaches rarely: drawn from while a lane has not taken it (guided.ts).
   */
  guides?: Guide<S>[];
  /**
   * Cases every lane draws first, each once and in this order, before its own (guided.ts): a
   * matrix the rule must cover (each table × command × API role of a grant rule) or a rule's
   * boundary (every condition met but one), met in the lane's first draws instead of by chance.
   * Early stop (engine/runner/budget.ts) reads a kind of request first sent after the first tranche
   * as new ground, and a rare value's fault found late: a sweep of both ends both sooner.
   */
  sweep?: CasesOf<S>[];
  /**
   * For a property generic over several tables (R01 over every owner-guarded table): the same
   * property restricted to the tables a target has, or undefined when it has none of them.
   * Absent: every table in `tables` is needed.
   */
  narrow?: (has: (table: string) => boolean) => DataProperty<S> | undefined;
  /**
   * A rule that its functions be refused (R15): one the target keeps under the model's name only in
   * a schema the API does not expose is present, every call refused by PostgREST (PGRST202), the
   * secure reading FUNCTION_OUTSIDE_API (applicability.ts). Absent: such a function is missing.
   */
  refusedOutsideApi?: boolean;
}

/** One source of cases of a property, with the tables and functions it needs. */
export interface CasePart<S = any> {
  tables: string[];
  functions?: string[];
  cases: CasesOf<S>;
  /** Guides into this part's rare branches: the property's while the part is one of its parts. */
  guides?: Guide<S>[];
  /** This part's sweep (DataProperty.sweep): the property's while the part is one of its parts. */
  sweep?: CasesOf<S>[];
}

/**
 * A property drawing its cases from several parts (R07 over PR and VS tickets): on a target,
 * only the parts whose tables exist run; with none, the property is not applicable.
 */
export function fromParts<S>(base: Pick<DataProperty<S>, 'id' | 'rule' | 'title' | 'clauses'>, parts: CasePart<S>[]): DataProperty<S> {
  const build = (chosen: CasePart<S>[]): DataProperty<S> => ({
    ...base,
    // A narrowed property cannot reach the clauses of the parts it lost.
    clauses: chosen.length === parts.length ? base.clauses : undefined,
    tables: [...new Set(chosen.flatMap((p) => p.tables))],
    functions: [...new Set(chosen.flatMap((p) => p.functions ?? []))],
    ...(chosen.some((p) => p.guides?.length) ? { guides: chosen.flatMap((p) => p.guides ?? []) } : {}),
    ...(chosen.some((p) => p.sweep?.length) ? { sweep: chosen.flatMap((p) => p.sweep ?? []) } : {}),
    cases: (settings, oracle) => (chosen.length === 1 ? chosen[0].cases(settings, oracle) : fc.oneof(...chosen.map((p) => p.cases(settings, oracle)))),
    narrow: (has) => {
      const present = chosen.filter((p) => [...p.tables, ...(p.functions ?? [])].every(has));
      return present.length ? build(present) : undefined;
    },
  });
  return build(parts);
}
