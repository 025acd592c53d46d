/**
 * Rule 1's guard, stated once for every table an owner may update: compare the whole row minus
 * an allow-list (and minus generated columns and updated_at), so a column added later is
 * guarded by default. Server contexts (null auth.uid()) are not guarded.
 */
import type { Row } from './json.ts';
import { filtered, raised, rejectedByPolicy, secureReading, type Outcome } from './outcome.ts';
import type { RuleContext, TriggerResult } from './table-model.ts';
import { jsonEqual } from './values.ts';

export const PRIVILEGED_COLUMN_CODE = 'P0001';

export function changedColumns(oldRow: Row, newRow: Row, ignored: readonly string[]): string[] {
  const names = new Set([...Object.keys(oldRow), ...Object.keys(newRow)]);
  return [...names].filter((n) => !ignored.includes(n) && !jsonEqual(oldRow[n] ?? null, newRow[n] ?? null)).sort();
}

export interface OwnerGuard {
  table: string;
  isOwner: (row: Row, ctx: RuleContext) => boolean;
  /** Handlers and admins the guard lets through. */
  isExempt: (row: Row, ctx: RuleContext) => boolean;
  /**
   * An exemption that is the model's reading only (staff on their own users row: the spec names
   * no handler there): the guard refusing such a caller's change is as secure, and accepted.
   */
  exemptionOptional?: (row: Row, ctx: RuleContext) => boolean;
  editable: (ctx: RuleContext) => readonly string[];
  /**
   * The allow-list is empty (`ownerEditableColumns: []`): owners cannot update the table. Then a
   * change is as secure refused by the guard as left undone by row security (no UPDATE policy
   * for owners: nothing changed, or a policy refusal), and each is accepted; so is an owner's
   * PATCH that changes nothing, whether it passes or is left undone.
   */
  ownersCannotUpdate?: (ctx: RuleContext) => boolean;
  /** The refusal (with its reason and message pattern) for a change to `changed`; default a bare P0001. */
  refusal?: (ctx: RuleContext, changed: string[]) => Outcome;
  /** Records the guard's decision on an owner's update as a model branch (engine/model/branches.ts). */
  branch?: (decision: 'exempt' | 'allow-list' | 'refused') => void;
}

/** The secure reading of a guard exempting fewer callers than the model (exemptionOptional): its refusal accepted. */
export const guardExemptingFewer = (table: string) => `${table}.guard-exempting-fewer`;
/** The secure reading of a table owners cannot update (ownersCannotUpdate): their change left undone by row security accepted. */
export const ownerUpdateLeftUndone = (table: string) => `${table}.owner-update-left-undone`;

export function applyOwnerGuard(guard: OwnerGuard, oldRow: Row, newRow: Row, ctx: RuleContext): TriggerResult {
  if (ctx.uid === null) return { row: newRow };
  if (!guard.isOwner(oldRow, ctx)) return { row: newRow };
  // The clause names the guard, not the columns: one hole in a guard is one finding, whatever columns a case touched.
  const refusalOf = (changed: string[]): Outcome => {
    const refused = guard.refusal?.(ctx, changed) ?? raised(PRIVILEGED_COLUMN_CODE, `${guard.table}: ${changed.join(', ')}`);
    return refused.kind === 'raised' ? { ...refused, clause: `owner guard of ${guard.table}` } : refused;
  };
  if (guard.isExempt(oldRow, ctx)) {
    guard.branch?.('exempt');
    const optional = guard.exemptionOptional?.(oldRow, ctx) ? changedColumns(oldRow, newRow, guard.editable(ctx)) : [];
    return optional.length ? { row: newRow, refusalIsSecure: secureReading(guardExemptingFewer(guard.table), refusalOf(optional)) } : { row: newRow };
  }
  const changed = changedColumns(oldRow, newRow, guard.editable(ctx));
  guard.branch?.(changed.length > 0 ? 'refused' : 'allow-list');
  if (changed.length > 0) {
    const reject = refusalOf(changed);
    if (!guard.ownersCannotUpdate?.(ctx) || (reject.kind !== 'raised' && reject.kind !== 'rejected' && reject.kind !== 'error')) return { reject };
    const undone = [filtered([]), filtered(null), rejectedByPolicy('owners cannot update this table (ownerEditableColumns: [])')].map((o) => secureReading(ownerUpdateLeftUndone(guard.table), o));
    return { reject: { ...reject, orElse: [...(reject.orElse ?? []), ...undone] } };
  }
  return guard.ownersCannotUpdate?.(ctx) ? { row: newRow, undoneIsSecure: true } : { row: newRow };
}
