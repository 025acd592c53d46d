/**
 * A world's rows as the statements that write them, table by table in foreign-key order, as the
 * privileged server context. Values go through json_populate_record, the same reading of JSON
 * that requests get.
 */
import type { World } from '../model/world.ts';
import type { FixtureStatement } from './postgrest/case-transaction.ts';
import { ident, literal } from './postgrest/sql-text.ts';

export function qualifiedTable(name: string): string {
  const [schema, table] = name.includes('.') ? name.split('.', 2) : ['public', name];
  return `${ident(schema)}.${ident(table)}`;
}

export function fixtureStatements(world: World, order: readonly string[]): FixtureStatement[] {
  const statements: FixtureStatement[] = [];
  const tables = [...order.filter((t) => world[t]?.length), ...Object.keys(world).filter((t) => !order.includes(t) && world[t].length)];
  for (const table of tables) {
    const target = qualifiedTable(table);
    for (const row of world[table]) {
      const cols = Object.keys(row);
      const sql = `insert into ${target} (${cols.map(ident).join(', ')}) select ${cols.map((c) => `r.${ident(c)}`).join(', ')} from json_populate_record(null::${target}, ${literal(JSON.stringify(row))}::json) r`;
      statements.push({ table, row, sql });
    }
  }
  return statements;
}
