/**
 * A fixture row completed so the target's CHECKs tying one column to another hold
 * (introspection/column-agreements.ts): a `closed_at` the model does not know is set for a ticket
 * the model draws `resolved`, and left null for an open one; a `created_at` the model does not know
 * is written no later than the `deleted_at` it draws. Only columns the model's row leaves out are
 * written: a value the model drew that breaks such a CHECK stays the database's refusal (a
 * named drop). Without this, stranger-app-12's status/closed_at, paid_at and deleted_at checks
 * refused most fixture rows of vs_tickets, shop_orders and pr_tickets. Pure (no I/O).
 */
import type { Json, Row } from '../model/json.ts';
import type { ColumnAgreement } from '../introspection/column-agreements.ts';
import type { ColumnShape } from '../introspection/table-shapes.ts';

/** `filled` (the model's row `drawn`, completed) with the agreeing columns the model left out set; `fill` gives a column a value its type and CHECKs accept. */
export function withAgreeingColumns(drawn: Row, filled: Row, columns: readonly ColumnShape[], agreements: readonly ColumnAgreement[], fill: (column: ColumnShape) => Json): Row {
  let out = filled;
  const settable = (name: string) => !(name in drawn);
  const shape = (name: string) => columns.find((c) => c.name === name);
  const set = (name: string, value: Json) => {
    if (out === filled) out = { ...filled };
    out[name] = value;
  };
  for (const a of agreements) {
    if (a.kind !== 'presence') continue;
    // A key the row leaves out holds its constant default once written (Basejump's `personal_account default false`).
    const key = a.key in out ? out[a.key] : shape(a.key)?.constantDefault;
    if (key === undefined) continue;
    const inValues = (typeof key === 'string' || typeof key === 'boolean' || typeof key === 'number') && a.values.includes(String(key));
    // Values wanted (every column set where `present` and in the values, at least one where neither), else nulls.
    const wantsValues = a.present === inValues;
    const isSet = (name: string) => out[name] !== undefined && out[name] !== null;
    const canWrite = a.columns.filter((name) => settable(name) && shape(name) !== undefined);
    if (wantsValues) {
      // Every column set (present) / at least one set (absent): values for those the model left out.
      if (a.present ? a.columns.every(isSet) : a.columns.some(isSet)) continue;
      for (const name of canWrite) {
        const column = shape(name)!;
        if (isSet(name) || column.references) continue;
        set(name, fill(column));
        if (!a.present) break;
      }
    } else {
      // At least one null (present) / every one null (absent): nulls where the model left them out.
      if (a.present ? !a.columns.every(isSet) : !a.columns.some(isSet)) continue;
      for (const name of canWrite) {
        if (shape(name)!.notNull) continue;
        set(name, null);
        if (a.present) break;
      }
    }
  }
  for (const a of agreements) {
    if (a.kind !== 'order' || a.strict) continue;
    const [later, earlier] = [out[a.later], out[a.earlier]];
    if (later === undefined || later === null) continue;
    // The one the model left out takes the other's value (equal holds `>=`): an earlier `created_at`
    // the model does not know as its drawn `deleted_at`, a `closed_at` filled above as its drawn `created_at`.
    if (settable(a.earlier) && shape(a.earlier) !== undefined) set(a.earlier, later);
    else if (settable(a.later) && earlier !== undefined && earlier !== null) set(a.later, earlier);
  }
  return out;
}

/**
 * The rows of one table as one INSERT writes them: a column one row sets and another leaves out is
 * written null for the latter, not its default. Where the agreements set a NOT NULL column with a
 * default on some rows (a `created_at` no later than a drawn `deleted_at`), the others get a value
 * too (else `created_at` NOT NULL refused the whole statement).
 */
export function withKeysOfEveryRow(rows: Row[], columns: readonly ColumnShape[], fill: (column: ColumnShape) => Json): Row[] {
  const written = new Set(rows.flatMap((r) => Object.keys(r)));
  const lacking = columns.filter((c) => c.notNull && c.hasDefault && !c.generated && written.has(c.name) && rows.some((r) => !(c.name in r)));
  if (!lacking.length) return rows;
  return rows.map((r) => (lacking.every((c) => c.name in r) ? r : { ...Object.fromEntries(lacking.map((c) => [c.name, fill(c)])), ...r }));
}
