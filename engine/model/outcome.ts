/**
 * What a request comes to, in the terms of the rules: allowed (with the rows the caller gets
 * back), filtered (nothing visible or changed, no error), rejected by row rules or grants
 * (42501), raised by a guard or a function, or another error. The model predicts one; the
 * checker compares it with what the database answered.
 */
import type { Row } from './json.ts';

/**
 * Why a guard or function refused (not authorized, not found, cross-department, …) and the
 * message pattern (a regular expression) the database's error text must match for that reason.
 * `setting` names where a project overrides the pattern; `source` says where a fixed pattern
 * comes from when the spec itself names the text (§7: NOT_AUTHORIZED).
 */
export interface Refusal {
  reason: string;
  pattern: string;
  setting?: string;
  /** Where a project sets the SQLSTATE of this refusal, named when the code differs. */
  codeSetting?: string;
  source?: string;
}

export type Outcome = (
  /** rows: what the caller gets back (null when the request returns none, e.g. return=minimal). */
  /** orElse: other answers as secure (an owner's PATCH where owners cannot update: left undone; a row left undone that a project's trigger refuses instead). */
  /** upTo: db-max-rows with no order: any `upTo` of `rows` (and of each embedded array) is the answer. */
  | { kind: 'allowed'; rows: Row[] | null; affected: number; orElse?: Outcome[]; upTo?: number }
  | { kind: 'filtered'; rows: Row[] | null; affected: number; orElse?: Outcome[] }
  /**
   * bodyAnswer (by grant, a function): what its body answers this caller, where that changes nothing
   * (a refusal, nothing of theirs). A target keeping Supabase's default EXECUTE runs the body
   * instead of refusing by grant (mapping.ts expectedOnTarget, conventions.grants).
   */
  | { kind: 'rejected'; code: '42501'; by: 'grant' | 'policy'; detail?: string; orElse?: Outcome[]; bodyAnswer?: Outcome }
  /** clause: which rule refused, when the message also carries data (a guard names the columns it refused). */
  | { kind: 'raised'; code: string; message?: string; refusal?: Refusal; clause?: string; orElse?: Outcome[] }
  | { kind: 'error'; code: string; detail?: string; orElse?: Outcome[] }
) & {
  /**
   * An alternative accepted only as a secure reading of a rule the spec leaves open (a guard
   * refusing an exemption the spec does not require): its name, counted in the run's note when a
   * step agreed by it alone (engine/runner/check-case.ts) and said in a failure near it.
   */
  reading?: string;
};

export type OutcomeClass = 'allowed' | 'filtered' | 'rejected' | 'errored';

export function outcomeClass(o: Outcome): OutcomeClass {
  switch (o.kind) {
    case 'allowed':
      return 'allowed';
    case 'filtered':
      return 'filtered';
    case 'rejected':
    case 'raised':
      return 'rejected';
    case 'error':
      return 'errored';
  }
}

export const allowed = (rows: Row[] | null, affected: number): Outcome => ({ kind: 'allowed', rows, affected });
/**
 * Nothing visible or changed: row security filtered every row, or a function refused in its
 * answer (`false`, `{ "error": "access denied" }`, a 200) and changed nothing, which PostgREST
 * counts as the rows it returned (`affected`: 1 for a scalar). The rule's deny side either way.
 */
export const filtered = (rows: Row[] | null, affected = 0): Outcome => ({ kind: 'filtered', rows, affected });
export const rejectedByPolicy = (detail?: string): Outcome => ({ kind: 'rejected', code: '42501', by: 'policy', detail });
export const rejectedByGrant = (detail?: string): Outcome => ({ kind: 'rejected', code: '42501', by: 'grant', detail });
export const raised = (code: string, message?: string, refusal?: Refusal, clause?: string): Outcome => ({ kind: 'raised', code, message, ...(refusal ? { refusal } : {}), ...(clause ? { clause } : {}) });
export const sqlError = (code: string, detail?: string): Outcome => ({ kind: 'error', code, detail });

/** `o` accepted as the secure reading `name` (Outcome.reading): an alternative, never the model's own answer. */
export function secureReading(name: string, o: Outcome): Outcome {
  return { ...o, reading: name };
}

/** A failure with further answers that are as correct (nothing added to a success or to none). */
export function orAlso(o: Outcome, alternatives: Outcome[]): Outcome {
  if (!alternatives.length || o.kind === 'allowed' || o.kind === 'filtered') return o;
  return { ...o, orElse: [...(o.orElse ?? []), ...alternatives] };
}

/**
 * Several failures, any of which the database may report first (a multi-row write stops at
 * whichever failing row it reaches first): the first, with the other distinct ones as `orElse`.
 */
export function anyOf(failures: Outcome[]): Outcome {
  const key = (o: Outcome) =>
    o.kind === 'rejected' ? `42501:${o.by}` : o.kind === 'raised' ? `${o.code}:${o.refusal?.reason ?? ''}` : o.kind === 'error' ? o.code : o.kind;
  const distinct = failures.filter((o, i) => failures.findIndex((p) => key(p) === key(o)) === i);
  const [first, ...rest] = distinct;
  return rest.length && first.kind !== 'allowed' && first.kind !== 'filtered' ? { ...first, orElse: [...(first.orElse ?? []), ...rest] } : first;
}
