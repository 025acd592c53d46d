/**
 * A drawn case with each whole-row read (or RETURNING) of a role the model grants some columns
 * only narrowed to those columns (engine/model/granted-columns.ts), as that app's client sends it.
 * A model run's steps are narrowed as it sends them, so its compiled steps and the case's agree.
 */
import type { Oracle } from '../pack.ts';
import { readingGrantedColumns } from '../model/granted-columns.ts';
import { absentColumns, type TargetMapping } from '../mapping/mapping.ts';
import { modelRunOf, withModelRun, type DataCase, type DataStep } from './data-case.ts';

export function withGrantedColumnReads(oracle: Oracle, mapping: TargetMapping | undefined, testCase: DataCase): DataCase {
  const absent = mapping ? (table: string, column: string) => absentColumns(mapping, table).includes(column) : undefined;
  const narrowed = (step: DataStep): DataStep => {
    const request = readingGrantedColumns(oracle.model.tables, oracle.settings, step.caller, step.request, absent);
    return request === step.request ? step : { ...step, request };
  };
  const steps = testCase.steps.map(narrowed);
  const run = modelRunOf(testCase);
  // A model run recompiled later (caller-filled-run.ts) sends what this hook narrows: wrapped whatever its steps so far.
  if (run) return withModelRun({ ...testCase, steps }, (execute) => run((step) => execute(narrowed(step))));
  return steps.every((s, i) => s === testCase.steps[i]) ? testCase : { ...testCase, steps };
}
