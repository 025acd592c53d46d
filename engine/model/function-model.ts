/**
 * How the model describes one callable database function (spec §4.2): who may execute it
 * (rule 15: named grants only) and what it answers. `predict` returns the answer in the shape
 * the checker reads back from PostgREST: a set of rows, one object as one row, a scalar as
 * `{ value }`, a void function as `rows: null`.
 */
import type { Caller } from './caller.ts';
import { branch } from './branches.ts';
import { rejectedByGrant } from './outcome.ts';
import type { Json, Row } from './json.ts';
import type { Prediction } from './prediction.ts';
import type { World } from './world.ts';
import type { ProjectRole } from './project-role.ts';

export type ExecuteGrantee = 'anon' | 'authenticated' | 'service_role';
/** Who a function model may name as holding EXECUTE: an API role, or a role of the project's own the request runs as (Caller.role). */
export type FunctionGrantee = ExecuteGrantee | ProjectRole;

export interface FunctionModel<S = any> {
  /** `fn`, or `schema.fn` outside public. */
  name: string;
  /** Argument names in the order a caller may pass them. */
  args: string[];
  /** Rule 15: the roles holding EXECUTE (public never does), a project role (`app_admin`) too; everything else must be revoked. */
  executableBy: readonly FunctionGrantee[];
  /** Output columns set by the server (timestamps, …): present but not compared. */
  serverAssigned?: string[];
  /** It answers nothing (RETURNS void): `init` proposes `returns: "value-as-void"` for a target's function returning a value. */
  answersVoid?: boolean;
  predict(world: World, caller: Caller, args: Record<string, Json>, settings: S): Prediction;
  /**
   * The answer as compared, applied alike to the model's rows and the database's: where the spec
   * states a property of a value rather than the value (rule 12: the auto-close remark "carries
   * no ticket id"), both sides become that property. `world` is the world before the call.
   */
  comparedAs?: (rows: Row[], world: World, settings: S) => Row[];
  /** comparedAs holding a secure reading (ComparedAsReading): a step agreeing only through it is counted under its name. */
  comparedAsReading?: ComparedAsReading<S>;
  /** The setting that names this function's output columns (`functionColumns.fn`), named when they differ. */
  columnsSetting?: string;
  /**
   * Where the spec fixes the answer's columns ("… only"), why: then no extra output column may be
   * set aside (mapping.functions.<f>.extraColumns is refused); one the target returns is a finding.
   */
  fixedColumns?: string;
  /** The setting that decides whether a call answers or refuses (`refusals.notFound`), named when one side answered and the other raised. */
  outcomeSetting?: string;
  /** Output columns whose values a setting decides (column → setting path), named when they differ. */
  valueSettings?: Record<string, string>;
  /** The setting that decides how many rows the answer holds (`passport.leaderboardSize`), named with its value when the rows touched differ. */
  rowsSetting?: string;
  /**
   * Keys of a jsonb answer holding rows (one or a list) and the columns the model's rows there
   * carry: `init` reads what the target's rows there carry beyond them (policyfuzz init, extraColumns).
   */
  answerRows?: Record<string, readonly string[]>;
  /**
   * The model table whose rows the answer is, in that table's column names (get_vs_ticket_by_id
   * answers a vs_tickets row): a project's answer is read back through the table's column
   * mapping and expected in its vocabulary (mapping.functions.<f>.rowsOf, answer-tables.ts).
   */
  rowsOf?: string;
  /** Keys of a json answer holding rows of a model table (the org chart's `nodes`: team_nodes), read as that table's (mapping tableRows). */
  rowsUnder?: Record<string, string>;
}

/** The callers an undeclared function's answers are read from (answersVoidOf): the server, a visitor, someone signed in. */
const PROBE_CALLERS: readonly Caller[] = [{ kind: 'service' }, { kind: 'anon' }, { kind: 'user', id: '00000000-0000-4000-8000-000000000001' }];

/**
 * Whether the function answers nothing (RETURNS void): as declared (`answersVoid`), else as its
 * answer on an empty world says: a success with no rows (`allowed(null, 1)`, the void function of
 * docs/function-models.md) is void, one with rows is not. A model raising, refusing or throwing
 * there (it needs rows, or settings) says nothing: not void, as before.
 */
export function answersVoidOf(model: FunctionModel, settings: unknown = {}): boolean {
  if (model.answersVoid !== undefined) return model.answersVoid;
  const args: Record<string, Json> = Object.fromEntries(model.args.map((a) => [a, null]));
  for (const caller of PROBE_CALLERS) {
    try {
      const { outcome } = model.predict({}, caller, args, settings);
      if (outcome.kind === 'allowed' || outcome.kind === 'filtered') return outcome.rows === null;
    } catch {
      // Read on: another caller may be answered without what this one needed.
    }
  }
  return false;
}

/** Functions that exist in the database but are not part of the API (trigger functions, private helpers). */
export interface PrivateFunction {
  name: string;
  /** Rule 15: who may execute it; usually nobody. */
  executableBy: readonly FunctionGrantee[];
}

/** A function the caller's role may not execute answers 42501 before its body runs. */
export function executeDenied(model: { name: string; executableBy: readonly FunctionGrantee[] }, role: FunctionGrantee) {
  const granted = model.executableBy.includes(role);
  // An engine branch (branches.ts): a pack counts it under a property as `<property>.grant.execute.…`.
  branch(granted ? 'grant.execute.granted' : 'grant.execute.denied');
  return granted ? undefined : rejectedByGrant(`execute on ${model.name}`);
}

/**
 * A secure reading held in how answers are compared rather than in an alternative answer (public
 * comments compared without the server's time and the model's `by` word, which the spec names
 * not): `strictly` is comparedAs without it. A step agreeing under comparedAs but not under
 * `strictly` is counted under `name` in the run's note and summary.json (check-case.ts acceptedBy).
 */
export interface ComparedAsReading<S = any> {
  name: string;
  strictly: (rows: Row[], world: World, settings: S) => Row[];
}
