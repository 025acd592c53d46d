/**
 * Before any case on a project's own schema: do the model's settings fit the schema's
 * vocabularies? A value the schema allows (a CHECK list or an enum) that the model's check of
 * the same column refuses means the config has not named the project's roles or statuses yet.
 * Cases would then fail on fixtures or, worse, disagree on a write the CHECK refuses for a
 * reason no rule is about: a harness error, never a verdict.
 */
import type { Oracle } from '../pack.ts';
import type { TableShapes } from '../introspection/table-shapes.ts';
import type { DataProperty } from './data-property.ts';
import type { PropertyResult } from './result.ts';

export function vocabularyMisfits(oracle: Oracle, shapes: TableShapes | undefined): string[] {
  if (!shapes) return [];
  const misfits: string[] = [];
  for (const [table, model] of Object.entries(oracle.model.tables)) {
    const columns = shapes.get(table);
    if (!columns) continue;
    for (const spec of model.columns) {
      if (!spec.check) continue;
      const shape = columns.find((c) => c.name === spec.name);
      const allowed = shape?.vocabulary ?? shape?.enumLabels;
      if (!shape || !allowed || spec.type !== 'text') continue;
      const refused = allowed.filter((v) => !spec.check!(v, oracle.settings));
      if (refused.length === 0) continue;
      const source = shape.vocabulary ? `its CHECK ${shape.vocabularyConstraint ?? ''}`.trimEnd() : `its enum ${shape.type}`;
      misfits.push(`${table}.${spec.name} allows ${allowed.join(', ')} (${source}), but the model refuses ${refused.join(', ')}`);
    }
  }
  return misfits;
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
    note: `harness error: the model's settings do not fit the schema: ${misfits.join('; ')}. Name the project's values in the "model" block of ${where} (roles, staffRoles, statuses, …)`,
  };
}
