/** Quoting for SQL text built by the harness (identifiers and literals; standard_conforming_strings on). */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function literal(value: string): string {
  if (value.includes('\0')) throw new Error('a NUL character cannot be sent to Postgres');
  return `'${value.replace(/'/g, "''")}'`;
}

/** A Postgres array literal ('{"a","b"}') for `= any(...)`, typed by the column like PostgREST's parameter. */
export function arrayLiteral(values: string[]): string {
  return literal(`{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`);
}
