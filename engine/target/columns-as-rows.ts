/**
 * A model column the target keeps as rows of another table: role-based access control in
 * tables (stranger-app-9), where a user's `role` is a row of `user_roles (user_id, role_id)`
 * naming a seeded `roles` row by its `slug`, and `permissions` rows of `user_permissions`. The
 * users table (or its view) has no such column to write, so the fixtures write the rows: each
 * owner's rows of that table are replaced by one per value the world gives (none for a null),
 * after every table of the world is written (a signup trigger's default grant included).
 */
import type { World } from '../model/world.ts';
import { ident, literal } from '../executor/sql-text.ts';
import { qualifiedTable, type FixtureStatement } from './fixture-statement.ts';

export interface ColumnAsRows {
  /** The table holding one row per value (target name: `app.user_roles`). */
  table: string;
  /** Its column naming the owner row (`user_id`): the owner's key as the target keeps it. */
  owner: string;
  /** Its column holding the value, or the looked-up key of the value (`role_id`). */
  value: string;
  /** The value is a row of this table, found by its `name` column, and `value` holds its `key` (`app.roles`, `slug`, `id`). */
  lookup?: { table: string; key: string; name: string };
  /** Columns every such row holds, and only such rows (`source: "self"` beside a `managed` kind): the others are left alone. */
  fixed?: Record<string, string>;
}

/** By model `table.column` (`users.role`, `users.permissions`). */
export type ColumnsAsRows = Record<string, ColumnAsRows>;

/** The values a model column holds in a row: an array's elements, a scalar, none for null. */
function valuesOf(cell: unknown): string[] {
  if (cell === null || cell === undefined) return [];
  return (Array.isArray(cell) ? cell : [cell]).map(String);
}

/**
 * The statements writing the world's values of each such column. `ownerKey` gives the owner's
 * key as the target keeps it for a model row of `table` (its id, translated where the target's
 * ids differ). A value the lookup table lacks leaves its key null: the target's NOT NULL refuses
 * the fixture, and the case is dropped, named by it, never run on a world it does not hold.
 */
export function columnsAsRowsStatements(world: World, settings: ColumnsAsRows, ownerKey: (table: string, row: Record<string, unknown>) => unknown): FixtureStatement[] {
  return Object.entries(settings).flatMap(([at, held]) => {
    const dot = at.lastIndexOf('.');
    const table = at.slice(0, dot);
    const column = at.slice(dot + 1);
    const rows = (world[table] ?? []) as Record<string, unknown>[];
    if (!rows.length) return [];
    const owners = rows.map((r) => String(ownerKey(table, r)));
    const values = rows.flatMap((r) => valuesOf(r[column]).map((name) => ({ owner: String(ownerKey(table, r)), name })));
    const target = qualifiedTable(held.table);
    const fixed = Object.entries(held.fixed ?? {});
    const onlyFixed = fixed.map(([c, v]) => ` and ${ident(c)}::text = ${literal(v)}`).join('');
    const remove: FixtureStatement = {
      table: held.table,
      row: null,
      sql: `delete from ${target} where ${ident(held.owner)}::text = any(array(select json_array_elements_text(${literal(JSON.stringify(owners))}::json)))${onlyFixed}`,
    };
    if (!values.length) return [remove];
    // Each value typed as the table's columns are (json_populate_record), whatever the owner's key type.
    const typed = `json_populate_record(null::${target}, json_build_object(${[[held.owner, 'v.owner'], ...(held.lookup ? [] : [[held.value, 'v.name']]), ...fixed.map(([c, v]) => [c, literal(v)])].map(([c, e]) => `${literal(c)}, ${e}`).join(', ')}))`;
    const columns = [held.owner, held.value, ...fixed.map(([c]) => c)];
    const select = [`(p.r).${ident(held.owner)}`, held.lookup ? `l.${ident(held.lookup.key)}` : `(p.r).${ident(held.value)}`, ...fixed.map(([c]) => `(p.r).${ident(c)}`)];
    const lookup = held.lookup ? ` left join ${qualifiedTable(held.lookup.table)} l on l.${ident(held.lookup.name)}::text = v.name` : '';
    const insert: FixtureStatement = {
      table: held.table,
      row: values,
      sql: `insert into ${target} (${columns.map(ident).join(', ')}) select ${select.join(', ')} from json_to_recordset(${literal(JSON.stringify(values))}::json) v (owner text, name text) cross join lateral (select ${typed} as r) p${lookup}`,
    };
    return [remove, insert];
  });
}
