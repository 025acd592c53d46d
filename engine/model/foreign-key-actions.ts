/**
 * What a DELETE does to the rows that reference the rows it removes (a foreign key's ON DELETE),
 * as PostgreSQL's referential-integrity triggers do it: CASCADE deletes them and SET NULL clears
 * their column, recursively, as the table owner (row security does not apply to these internal
 * queries, ri_triggers.c); RESTRICT and NO ACTION refuse the statement (23503) when a row still
 * references a removed key at its end. SET DEFAULT and deferred keys are not predicted: a world
 * left with such a row is one the target cannot hold (engine/target/realizable.ts drops it).
 * Pure: the actions come from the target's catalog, in model names (engine/target/foreign-key-actions.ts).
 */
import type { Row } from './json.ts';
import { jsonEqual } from './values.ts';
import { rowsOf, withRows, type World } from './world.ts';

export type OnDelete = 'cascade' | 'set null' | 'restrict' | 'no action' | 'set default';

/** A single-column foreign key `table.column` → `references.referencedColumn` and its ON DELETE. */
export interface ForeignKeyAction {
  table: string;
  column: string;
  references: string;
  referencedColumn: string;
  onDelete: OnDelete;
  /** DEFERRABLE INITIALLY DEFERRED: checked at commit, which a case never reaches. */
  deferred?: boolean;
}

/**
 * The world after `deleted` rows of `table` left `world` (already without them), or the key that
 * refuses the DELETE (23503). Cascades first, then the restricting keys on what remains.
 */
export function afterDelete(world: World, table: string, deleted: readonly Row[], actions: readonly ForeignKeyAction[]): { world: World } | { violation: ForeignKeyAction } {
  let next = world;
  const removed: { table: string; rows: readonly Row[] }[] = [];
  const queue: { table: string; rows: readonly Row[] }[] = [{ table, rows: deleted }];
  for (let item = queue.shift(); item; item = queue.shift()) {
    removed.push(item);
    for (const a of actions) {
      if (a.references !== item.table || a.deferred || (a.onDelete !== 'cascade' && a.onDelete !== 'set null')) continue;
      const hit = referencing(rowsOf(next, a.table), a, item.rows);
      if (!hit.size) continue;
      const rows = rowsOf(next, a.table);
      if (a.onDelete === 'cascade') {
        next = withRows(next, a.table, rows.filter((r) => !hit.has(r)));
        queue.push({ table: a.table, rows: [...hit] });
      } else next = withRows(next, a.table, rows.map((r) => (hit.has(r) ? { ...r, [a.column]: null } : r)));
    }
  }
  for (const a of actions) {
    if (a.deferred || (a.onDelete !== 'restrict' && a.onDelete !== 'no action')) continue;
    const gone = removed.filter((r) => r.table === a.references).flatMap((r) => r.rows);
    // A key the parent table still holds (another row with the same value) is still satisfied.
    const stillThere = (row: Row) => rowsOf(next, a.references).some((p) => jsonEqual(p[a.referencedColumn] ?? null, row[a.column] ?? null));
    if ([...referencing(rowsOf(next, a.table), a, gone)].some((r) => !stillThere(r))) return { violation: a };
  }
  return { world: next };
}

/** The rows of `children` whose key names one of `parents` through `a`. */
function referencing(children: readonly Row[], a: ForeignKeyAction, parents: readonly Row[]): Set<Row> {
  const keys = parents.map((p) => p[a.referencedColumn] ?? null).filter((k) => k !== null);
  return new Set(keys.length ? children.filter((c) => keys.some((k) => jsonEqual(c[a.column] ?? null, k))) : []);
}
