/**
 * A write the model lets succeed that the target refuses with a duplicate key (23505) on the
 * answer path. The model keeps one key per table, its primary key, and predicts a duplicate of it
 * itself. A duplicate of any other key (a unique constraint or index the model does not have: on
 * an expression, a partial one, or the key of a table a trigger or an extension writes, which the
 * catalog read may not even follow) is a difference of schema: the case is one the target cannot
 * hold, dropped and counted under this reason. A duplicate of the model's own key stays a
 * disagreement: the target holds a row under that key which the model's world does not.
 */
import type { TableShapes } from '../introspection/table-shapes.ts';
import type { ApiResponse } from '../executor/response.ts';
import type { Outcome } from '../model/outcome.ts';
import { targetColumn, targetTable, type TargetMapping } from '../mapping/mapping.ts';

/** The end of the drop reason: the key the target refused the row by is none the model keeps. */
export const KEY_THE_MODEL_LACKS = 'a unique key the model does not have (23505)';

/** Each target table's columns of the model's primary key, in the target's names (a table the model does not write, or whose key the target lacks: none). */
export type ModelKeysOnTarget = (targetTable: string) => readonly string[] | undefined;

/**
 * The table and columns of the target's unique key (constraint or index) named `name`, as the
 * catalog read it, or undefined where it read none of that name (one on an expression it cannot
 * follow, a partial one, one of a table outside the schemas it reads).
 */
function uniqueKeyNamed(shapes: TableShapes, name: string): { table: string; columns: readonly string[] } | undefined {
  for (const [table, columns] of shapes) {
    for (const c of columns) {
      if (c.primaryKeyName === name || c.uniqueIndexes?.some((i) => i.name === name)) return { table, columns: [c.name] };
      const together = c.uniqueTogether?.find((t) => t.name === name);
      if (together) return { table, columns: together.columns };
    }
  }
  return undefined;
}

const sameColumns = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((c) => b.includes(c));

/**
 * Why a write the model lets succeed (allowed, or filtered) cannot be judged here: the target
 * refused it with a duplicate of a key the model does not keep; undefined for any other answer,
 * and for a duplicate of the model's own key. The key's columns are read from the error's detail
 * where Postgres gives them (it leaves them out on a table under row security), else from the
 * catalog by the key's name.
 */
export function duplicateOfKeyTheModelLacks(shapes: TableShapes, response: ApiResponse, expected: Outcome, modelKeys: ModelKeysOnTarget): string | undefined {
  if (response.error?.code !== '23505' || (expected.kind !== 'allowed' && expected.kind !== 'filtered')) return undefined;
  const name = /violates unique constraint "([^"]+)"/.exec(response.error.message)?.[1];
  if (!name) return undefined;
  const read = uniqueKeyNamed(shapes, name);
  const detailColumns = /^Key \(([^)]*)\)=/.exec(response.error.details ?? '')?.[1]?.split(', ');
  const columns = read?.columns ?? detailColumns;
  // The model's own key: its table's primary key on the target, over the same columns.
  const modelKey = read ? modelKeys(read.table) : undefined;
  if (modelKey && columns && sameColumns(modelKey, columns)) return undefined;
  return `${name} refused a row the model writes: ${KEY_THE_MODEL_LACKS}`;
}

/** The model's primary keys on the target (ModelKeysOnTarget), through the mapping when there is one. */
export function modelKeysOnTarget(mapping: TargetMapping | undefined, tables: Readonly<Record<string, { primaryKey: readonly string[] }>>): ModelKeysOnTarget {
  return (target) => {
    for (const [table, model] of Object.entries(tables)) {
      if ((mapping ? targetTable(mapping, table) : table) !== target) continue;
      const columns = model.primaryKey.map((c) => (mapping ? targetColumn(mapping, table, c) : c));
      return columns.every((c): c is string => c !== null) ? columns : undefined;
    }
    return undefined;
  };
}
