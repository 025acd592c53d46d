// A fixture statement's shape and a table's qualified name: what fixtures.ts and the modules it calls (columns-as-rows.ts) share, kept apart so they import no loop.
import { ident, type ParameterizedSql } from '../executor/sql-text.ts';

/**
 * One statement that writes fixture rows, with the table and row it writes (to name what a
 * database refused). `query`, when set, is the same statement with its rows as a parameter: the
 * executor prepares that shape once per connection. The executor finds where a case's first
 * request begins in its message by counting the statements (case-transaction.ts CaseHead): a
 * `query` is one; an `sql` text is cut as the server cuts it.
 */
export interface FixtureStatement {
  table: string;
  row: unknown;
  readonly sql: string;
  /** With `query`: the qualified table the statement inserts into. */
  target?: string;
  query?: ParameterizedSql;
}

/** A table name as SQL: `schema.table` quoted, `public` when none is named. */
export function qualifiedTable(name: string): string {
  const [schema, table] = name.includes('.') ? name.split('.', 2) : ['public', name];
  return `${ident(schema)}.${ident(table)}`;
}
