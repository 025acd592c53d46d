/**
 * A world's rows as the statements that write them, table by table in foreign-key order, as the
 * privileged server context: one statement per table (fast path) or per row (to name the row a
 * database refused). Values go through json_populate_recordset, the same reading of JSON that
 * requests get.
 */
import type { Row } from '../model/json.ts';
import type { World } from '../model/world.ts';
import type { FixtureStatement } from './postgrest/case-transaction.ts';
import { ident, literal } from './postgrest/sql-text.ts';

export function qualifiedTable(name: string): string {
  const [schema, table] = name.includes('.') ? name.split('.', 2) : ['public', name];
  return `${ident(schema)}.${ident(table)}`;
}

function insertRows(table: string, rows: Row[]): string {
  const target = qualifiedTable(table);
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return `insert into ${target} (${cols.map(ident).join(', ')}) select ${cols.map((c) => `r.${ident(c)}`).join(', ')} from json_populate_recordset(null::${target}, ${literal(JSON.stringify(rows))}::json) r`;
}

function tablesInOrder(world: World, order: readonly string[]): string[] {
  return [...order.filter((t) => world[t]?.length), ...Object.keys(world).filter((t) => !order.includes(t) && world[t].length)];
}

/** One statement per table. Rows of a table must share their keys (a missing key is inserted as null). */
export function fixtureStatements(world: World, order: readonly string[]): FixtureStatement[] {
  return tablesInOrder(world, order).map((table) => ({ table, row: world[table], sql: insertRows(table, world[table]) }));
}

/** One statement per row: slower, but a refusal names its row. */
export function fixtureStatementsPerRow(world: World, order: readonly string[]): FixtureStatement[] {
  return tablesInOrder(world, order).flatMap((table) => world[table].map((row) => ({ table, row, sql: insertRows(table, [row]) })));
}
