/**
 * Before any case on a project's own schema: do the model's settings fit the schema's
 * vocabularies? A value the schema allows (a CHECK list or an enum) that the model's check of
 * the same column refuses means the config has not named the project's roles or statuses yet.
 * Cases would then fail on fixtures or, worse, disagree on a write the CHECK refuses for a
 * reason no rule is about: a harness error, never a verdict.
 */
import type { Oracle } from '../pack.ts';
import type { TableShapes } from '../introspection/table-shapes.ts';
import { targetColumn, targetTable, type TargetMapping } from '../mapping/mapping.ts';
import type { Json } from '../model/json.ts';
import type { DataProperty } from './data-property.ts';
import type { PropertyResult } from './result.ts';

/**
 * The model values a target value stands for under a `values` mapping: those mapped onto it,
 * and itself when no mapping sends it elsewhere (unmapped values keep their spelling).
 */
function modelValuesOf(words: Record<string, string> | undefined, targetValue: string): string[] {
  if (!words) return [targetValue];
  const mapped = Object.entries(words).filter(([, t]) => t === targetValue).map(([m]) => m);
  return Object.hasOwn(words, targetValue) ? mapped : [...mapped, targetValue];
}

/**
 * The target's table and column for each model column (the mapping's names; a column mapped to
 * `null` is not there to misfit), and the target's values read back in the model's words
 * through the mapping's `values`, before the model's check is asked; by model table. The callers'
 * rows (`users`: every case has callers with roles) are in every world; another table's misfit
 * stops only the properties whose rules need that table: one status the model does not know on
 * project_sign_requests made all twenty rules harness errors on stranger-app-5, where only rule 10
 * reads that table.
 */
export function tableVocabularyMisfits(oracle: Oracle, shapes: TableShapes | undefined, mapping: TargetMapping = {}): TableMisfit[] {
  if (!shapes) return [];
  const misfits: TableMisfit[] = [];
  for (const [table, model] of Object.entries(oracle.model.tables)) {
    const onTarget = targetTable(mapping, table);
    const columns = shapes.get(onTarget);
    if (!columns) continue;
    for (const spec of model.columns) {
      if (!spec.check) continue;
      const column = targetColumn(mapping, table, spec.name);
      if (column === null) continue;
      const shape = columns.find((c) => c.name === column);
      const allowed = shape?.vocabulary ?? shape?.enumLabels;
      if (!shape || !allowed || spec.type !== 'text') continue;
      const words = mapping.tables?.[table]?.values?.[spec.name];
      const refused = allowed.filter((v) => !modelValuesOf(words, v).some((m) => spec.check!(m as Json, oracle.settings)));
      if (refused.length === 0) continue;
      const source = shape.vocabulary ? `its CHECK ${shape.vocabularyConstraint ?? ''}`.trimEnd() : `its enum ${shape.type}`;
      const where = onTarget === table && column === spec.name ? `${table}.${spec.name}` : `${table}.${spec.name} (the target's ${onTarget}.${column})`;
      misfits.push({ table, everywhere: table === 'users', text: `${where} allows ${allowed.join(', ')} (${source}), but the model refuses ${refused.join(', ')}${words ? ` (read through mapping.tables.${table}.values.${spec.name})` : ''}` });
    }
  }
  return misfits;
}

export interface TableMisfit {
  table: string;
  /** Stops every property (the callers' roles, a pack's misfit naming no table), not only those needing `table`. */
  everywhere: boolean;
  text: string;
}

/** The misfits that stop `property`: those everywhere, and those of a table its rules need and the target has (not among `leftOut`). */
export function misfitsInPlay(property: Pick<DataProperty, 'tables'>, leftOut: readonly string[], misfits: readonly TableMisfit[]): string[] {
  return misfits.filter((m) => m.everywhere || (property.tables.includes(m.table) && !leftOut.includes(m.table))).map((m) => m.text);
}

/** A property that cannot give a verdict because the model's settings do not fit the schema. */
export function misfitResult(property: Pick<DataProperty, 'id' | 'title'>, misfits: string[], seed: number, where: string): PropertyResult {
  return {
    id: property.id,
    title: property.title,
    area: 'data',
    status: 'error',
    cases: 0,
    counts: {},
    durationMs: 0,
    seed,
    note: `harness error: the model's settings do not fit the schema: ${misfits.join('; ')}. Name the project's values in the "model" block of ${where} (roles, staffRoles, statuses, …), or map a value the target spells differently in mapping.tables.<table>.values.<column>`,
  };
}
