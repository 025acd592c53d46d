/**
 * The target's ON DELETE actions in the model's names, for the model to predict a DELETE's
 * cascades (engine/model/foreign-key-actions.ts): each model column whose target column is a
 * foreign key to a table of the model's world (a model table or one of its fixture tables such
 * as auth.users). Only a target read from its catalog has them: the bundled reference has none.
 */
import type { ForeignKeyAction } from '../model/foreign-key-actions.ts';
import type { Oracle, PackModel } from '../pack.ts';
import { targetColumn, targetTable } from '../mapping/mapping.ts';
import type { FixturePlan } from './fixtures.ts';

export function foreignKeyActionsOn(plan: FixturePlan, model: PackModel): ForeignKeyAction[] {
  const shapes = plan.shapes;
  if (!shapes) return [];
  const mapping = plan.mapping;
  const onTarget = (table: string) => (mapping ? targetTable(mapping, table) : table);
  const columnOnTarget = (table: string, column: string) => (mapping && model.tables[table] ? targetColumn(mapping, table, column) : column);
  const worldTables = [...new Set([...Object.keys(model.tables), ...model.fixtureOrder])];
  const actions: ForeignKeyAction[] = [];
  for (const [table, tableModel] of Object.entries(model.tables)) {
    for (const { name } of tableModel.columns) {
      const target = columnOnTarget(table, name);
      const ref = target ? shapes.get(onTarget(table))?.find((c) => c.name === target)?.references : undefined;
      if (!ref?.onDelete) continue;
      const parent = worldTables.find((t) => onTarget(t) === ref.table);
      if (!parent) continue;
      const referencedColumn = model.tables[parent]?.columns.find((c) => columnOnTarget(parent, c.name) === ref.column)?.name ?? (model.tables[parent] ? undefined : ref.column);
      if (!referencedColumn) continue;
      actions.push({ table, column: name, references: parent, referencedColumn, onDelete: ref.onDelete, ...(ref.deferred ? { deferred: true } : {}) });
    }
  }
  return actions;
}

/** The oracle predicting the target's ON DELETE actions (none on a target not read from its catalog). */
export function withForeignKeyActions(oracle: Oracle, plan: FixturePlan): Oracle {
  const actions = foreignKeyActionsOn(plan, oracle.model);
  return actions.length ? { ...oracle, foreignKeyActions: actions } : oracle;
}
