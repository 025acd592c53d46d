/** Quoting for SQL text built by the harness (identifiers and literals; standard_conforming_strings on). */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * A name as a message shows it: bare when a plain identifier, else quoted as Postgres prints it
 * (`"Can view own pages."`), so a policy named with spaces and a full stop does not run into the
 * sentence around it.
 */
export function shownIdent(name: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(name) ? name : ident(name);
}

export function literal(value: string): string {
  if (value.includes('\0')) throw new Error('a NUL character cannot be sent to Postgres');
  return `'${value.replace(/'/g, "''")}'`;
}

/** The text of a Postgres array ({"a","b"}), bound as one parameter of `= any(...)` and typed by the column, like PostgREST's. */
export function arrayText(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}

/**
 * A statement with its values apart, as PostgREST sends its queries (parameters of unknown type,
 * prepared once per connection): `marked` holds a marker where each value goes. The same
 * statement is sent prepared (`$1`…) or, for a repro, with its values written in as literals.
 */
export interface ParameterizedSql {
  readonly marked: string;
  readonly params: readonly string[];
}

const MARK = '\u0001';
const MARKED_PARAM = /\u0001(\d+)\u0001/g;

/** Collects a statement's values: `bind` returns the marker that stands for the value in the text. */
export class SqlParams {
  readonly values: string[] = [];
  bind(value: string): string {
    this.values.push(value);
    return `${MARK}${this.values.length}${MARK}`;
  }
  statement(marked: string): ParameterizedSql {
    return { marked, params: this.values };
  }
}

/** The text PREPARE is given: `$n` for each value. */
export function preparedText(query: ParameterizedSql): string {
  return query.marked.replace(MARKED_PARAM, (_m, n: string) => `$${n}`);
}

/** The statement with its values written in (what psql repros show, and what runs when not prepared). */
export function inlineSql(query: ParameterizedSql): string {
  return query.marked.replace(MARKED_PARAM, (_m, n: string) => literal(query.params[Number(n) - 1]));
}
