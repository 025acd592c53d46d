/**
 * The types of a case's history (engine/checker/history.ts), apart so that packs can name them
 * without importing the checkers.
 */
import type { ApiResponse } from '../executor/response.ts';
import type { Row } from '../model/json.ts';
import type { Outcome, OutcomeClass } from '../model/outcome.ts';
import type { Prediction } from '../model/engine.ts';
import type { Caller } from '../model/caller.ts';
import type { ApiRequest } from '../model/request.ts';

/** The settings that decide a step's answer where the spec leaves a choice, named when the answer differs there. */
export interface SettingHints {
  /** The table's grants (TableModel.grantsSetting). */
  grants?: string;
  /**
   * The table's column-level SELECT setting (`tableGrants.<t>.columnSelect`), named where the
   * database refuses by the grant a read the model answers; only where the model grants no role
   * some columns only (set, the reads already name the granted columns: naming it again misleads).
   */
  columnSelect?: string;
  /** The function's output columns (FunctionModel.columnsSetting). */
  columns?: string;
  /** The setting that decides whether the function answers or refuses (FunctionModel.outcomeSetting). */
  outcome?: string;
  /** Columns whose values a setting decides (column → setting), named when their values differ. */
  values?: Record<string, string>;
  /** The claims setting and its value (PackModel.claimsSetting), named on a signed-in caller's disagreement. */
  claims?: string;
  /** A function's answer shape (`mapping.functions.<fn>.returns`), named where one side answers a value and the other none. */
  returns?: string;
  /** The table's rows setting and its value (TableModel.rowsSetting), named where the rows touched differ or a policy refused on one side only. */
  rows?: string;
}

export interface HistoryEntry {
  step: number;
  caller: Caller;
  request: ApiRequest;
  /** The model's own answer and world after the step (the model's names). */
  prediction: Prediction;
  /** What the target should answer: the prediction in the target's names (the same without a mapping). */
  predicted: Outcome;
  response: ApiResponse;
  /** What the target answered, in the model's terms. */
  observed: Outcome;
  /** Columns the server assigns: in the answer, never compared. */
  masked: string[];
  /** How returned rows are compared (a rule about sanitisation compares only what it is about). */
  comparedAs?: (rows: Row[]) => Row[];
  /** Settings to name when a comparison fails on what they decide. */
  hints: SettingHints;
  /** Something a request can reach reads the caller's user_metadata (SchemaCache.userMetadataRead): only then does a failure name the caller's. */
  readsUserMetadata?: boolean;
  outcomeClass: OutcomeClass;
  /** Its access-matrix cell (engine/model/access.ts). */
  cell: string;
  /** Why a checker rejects this step; absent when every checker accepts it. */
  disagreement?: string;
  /** The checker that rejected it. */
  checker?: string;
  /** The model agreed only by an answer the target's shape justified (mapping.ts leniencyOf): what justified it. */
  leniency?: string;
  /** The model agreed only by an alternative accepted as a secure reading (Outcome.reading): its name. */
  reading?: string;
}

/**
 * A check over one step, given the steps before it. It returns why the step is wrong, or
 * undefined. A pack states extra invariants this way (PackModel.invariants), e.g. "no answer
 * ever carries a password_hash column" or "no request gets a 500".
 */
export interface StepChecker {
  name: string;
  check(entry: HistoryEntry, earlier: readonly HistoryEntry[]): string | undefined;
}
