/**
 * One case end to end: write the fixtures, send each request as PostgREST would, predict it
 * with the model, compare, roll everything back. Returns the outcome class of every step and
 * the first disagreement, if any.
 */
import type { Outcome, OutcomeClass } from '../../model/outcome.ts';
import { outcomeClass } from '../../model/outcome.ts';
import { predict } from '../../model/predict.ts';
import type { ModelSettings } from '../../model/settings.ts';
import { serverAssignedColumns } from '../../model/table-model.ts';
import { fixtureOrder, tableModels } from '../../model/tables/index.ts';
import { functionModels } from '../../model/functions/index.ts';
import { compareOutcomes } from '../checker/compare.ts';
import { observedOutcome } from '../checker/observe.ts';
import { fixtureStatements, fixtureStatementsPerRow } from '../fixtures.ts';
import { FixtureError } from '../errors.ts';
import { UnfillableColumn } from '../introspection/fill-row.ts';
import type { CaseTransaction } from '../postgrest/case-transaction.ts';
import type { ApiResponse } from '../postgrest/response.ts';
import type { DataCase, DataStep } from './data-case.ts';

export interface StepMismatch {
  step: number;
  request: DataStep;
  reason: string;
  expected: Outcome;
  actual: Outcome;
  response: ApiResponse;
}

export interface CaseVerdict {
  classes: OutcomeClass[];
  mismatch?: StepMismatch;
}

function maskedColumns(step: DataStep): string[] {
  if (step.request.kind === 'rpc') {
    const name = step.request.schema && step.request.schema !== 'public' ? `${step.request.schema}.${step.request.fn}` : step.request.fn;
    return functionModels[name]?.serverAssigned ?? [];
  }
  const name = step.request.schema && step.request.schema !== 'public' ? `${step.request.schema}.${step.request.table}` : step.request.table;
  const model = tableModels[name];
  return model ? serverAssignedColumns(model) : [];
}

/**
 * A project's own tables carry columns the model does not know (audit fields, extra NOT NULL
 * columns); their values in `*` answers are the project's business, not a rule's. Only for a
 * foreign target: on the reference database every column is the model's and compared.
 */
function withoutForeignColumns(step: DataStep, outcome: Outcome): Outcome {
  if (step.request.kind === 'rpc' || (outcome.kind !== 'allowed' && outcome.kind !== 'filtered') || !outcome.rows) return outcome;
  const name = step.request.schema && step.request.schema !== 'public' ? `${step.request.schema}.${step.request.table}` : step.request.table;
  const model = tableModels[name];
  if (!model) return outcome;
  const known = new Set(model.columns.map((c) => c.name));
  const rows = outcome.rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => known.has(k))));
  return { ...outcome, rows } as Outcome;
}

export async function checkCase(tx: CaseTransaction, testCase: DataCase, settings: ModelSettings): Promise<CaseVerdict> {
  const classes: OutcomeClass[] = [];
  let world = testCase.world;
  const plan = tx.fixturePlan;
  let fixtures;
  try {
    fixtures = fixtureStatements(world, fixtureOrder, plan);
  } catch (e) {
    if (e instanceof UnfillableColumn) throw new FixtureError(e.message, e.table, world[e.table]);
    throw e;
  }
  await tx.begin(fixtures, () => fixtureStatementsPerRow(world, fixtureOrder, plan));
  try {
    for (let i = 0; i < testCase.steps.length; i++) {
      const step = testCase.steps[i];
      const prediction = predict(world, step.caller, step.request, settings);
      const response = await tx.send(step.caller, step.request);
      const observed = observedOutcome(step.request, response);
      const actual = plan.shapes ? withoutForeignColumns(step, observed) : observed;
      classes.push(outcomeClass(prediction.outcome));
      const disagreement = compareOutcomes(prediction.outcome, actual, maskedColumns(step));
      if (disagreement) {
        return { classes, mismatch: { step: i, request: step, reason: disagreement.reason, expected: prediction.outcome, actual, response } };
      }
      world = prediction.world;
    }
    return { classes };
  } finally {
    await tx.end();
  }
}
