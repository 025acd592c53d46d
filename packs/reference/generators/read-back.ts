/**
 * Issue 16: a SELECT policy loosened to `using (true)` must be caught by the rule that owns the
 * table. Every case of such a rule ends with its caller reading the owned tables whole (GET
 * without a filter), so a caller who should see none of other people's rows is shown to see
 * none. Appended by `map`, with no draw of its own: the cases before it are unchanged.
 */
import type fc from 'fast-check';
import type { DataCase, DataStep } from '../../../engine/runner/data-case.ts';

/** `schema.table` outside public. */
function readWhole(table: string): DataStep['request'] {
  const [schema, name] = table.includes('.') ? table.split('.') : [undefined, table];
  return { kind: 'select', table: name, ...(schema ? { schema } : {}), columns: '*', filters: [] };
}

export function withReadBack(cases: fc.Arbitrary<DataCase>, tables: string[]): fc.Arbitrary<DataCase> {
  return cases.map((c) => {
    const caller = c.steps[0]?.caller;
    return caller ? { ...c, steps: [...c.steps, ...tables.map((table) => ({ caller, request: readWhole(table) }))] } : c;
  });
}
