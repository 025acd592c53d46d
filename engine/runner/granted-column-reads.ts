/**
 * A drawn case with each whole-row read (or RETURNING) of a role the model grants some columns
 * only narrowed to those columns (engine/model/granted-columns.ts), as that app's client sends it.
 * A model run (fc.commands) is compiled again with its steps narrowed as it sends them: a narrowed
 * `return=representation` insert succeeds where the whole row's was refused, so the worlds its later
 * commands are drawn from differ (the same as caller-filled-run.ts does for caller-filled columns).
 */
import type { Oracle } from '../pack.ts';
import { readingGrantedColumns } from '../model/granted-columns.ts';
import { columnGrantsOf, grantsOf, privilegesOf, projectRolesOf } from '../model/table-model.ts';
import { absentColumns, type TargetMapping } from '../mapping/mapping.ts';
import { compiledAgain } from './caller-filled-run.ts';
import { modelRunOf, type DataCase, type DataStep } from './data-case.ts';

export async function withGrantedColumnReads(oracle: Oracle, mapping: TargetMapping | undefined, testCase: DataCase): Promise<DataCase> {
  if (!grantsSomeColumnsOnly(oracle)) return testCase;
  const absent = mapping ? (table: string, column: string) => absentColumns(mapping, table).includes(column) : undefined;
  const narrowed = (step: DataStep): DataStep => {
    const request = readingGrantedColumns(oracle.model.tables, oracle.settings, step.caller, step.request, absent);
    return request === step.request ? step : { ...step, request };
  };
  const steps = testCase.steps.map(narrowed);
  // No step narrowed: the case as drawn (a model run compiled again would send the same steps).
  if (steps.every((s, i) => s === testCase.steps[i])) return testCase;
  const run = modelRunOf(testCase);
  if (!run) return { ...testCase, steps };
  return compiledAgain(oracle, testCase.world, (execute) => run((step) => execute(narrowed(step))));
}

/** Whether the model grants any API role some columns of a table only (per oracle: its settings never change). */
function grantsSomeColumnsOnly(oracle: Oracle): boolean {
  let found = someColumnsOnly.get(oracle);
  if (found === undefined) {
    found = Object.values(oracle.model.tables).some((t) => {
      const grants = grantsOf(t, oracle.settings);
      return ['anon', 'authenticated', ...projectRolesOf(grants)].some((role) => !privilegesOf(grants, role).includes('select') && columnGrantsOf(grants, role, 'columnSelect') !== undefined);
    });
    someColumnsOnly.set(oracle, found);
  }
  return found;
}

const someColumnsOnly = new WeakMap<Oracle, boolean>();
