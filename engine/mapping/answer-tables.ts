/**
 * The model's word on which table's rows a function answers (FunctionModel.rowsOf, rowsUnder), as
 * the defaults of a project's mapping: a json answer built from a table's rows is read back with
 * that table's column mapping and expected in its vocabulary, as a GET of the table is. Without
 * it a `values` pair (`team_nodes.kind`: committee → org) held for every table read and for no
 * rpc answer: the org chart's nodes came back `org` where the model expected `committee`. A
 * project's own `rowsOf` or `tableRows` for the function wins. Pure.
 */
import type { FunctionModel } from '../model/function-model.ts';
import type { FunctionMapping, TargetMapping } from './mapping.ts';

/** `mapping` with each model function's answer tables filled in where the mapping says nothing of them. */
export function withAnswerTables(mapping: TargetMapping, functions: Record<string, Pick<FunctionModel, 'rowsOf' | 'rowsUnder'>>): TargetMapping {
  const filled: Record<string, FunctionMapping> = { ...mapping.functions };
  for (const [name, f] of Object.entries(functions)) {
    const entry = filled[name] ?? {};
    const rowsOf = f.rowsOf && entry.rowsOf === undefined ? { rowsOf: f.rowsOf } : {};
    const tableRows = f.rowsUnder && entry.tableRows === undefined ? { tableRows: { ...f.rowsUnder } } : {};
    if (Object.keys(rowsOf).length || Object.keys(tableRows).length) filled[name] = { ...entry, ...rowsOf, ...tableRows };
  }
  return { ...mapping, functions: filled };
}
