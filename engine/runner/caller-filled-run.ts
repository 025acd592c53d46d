/**
 * A model run's case (fc.commands: the VS lifecycle) on a target whose BEFORE INSERT triggers set
 * columns from auth.uid() (mapping `callerFilled`). Its steps were compiled on the model with the
 * bodies as drawn; filling one afterwards changes the worlds the later commands are drawn from,
 * so the run would no longer send the case's steps. Compiled again instead, each step filled and
 * predicted as the check predicts it, and the run's hook fills each step it sends the same way.
 */
import type { Oracle } from '../pack.ts';
import { predict } from '../model/predict.ts';
import { withCallerFilled } from '../mapping/mapping.ts';
import type { FixturePlan } from '../target/fixtures.ts';
import { modelRunOf, withModelRun, type DataCase, type DataStep } from './data-case.ts';

export async function withCallerFilledRun(plan: FixturePlan, oracle: Oracle, testCase: DataCase): Promise<DataCase> {
  const run = modelRunOf(testCase);
  const mapping = plan.mapping;
  if (!run || !mapping || !Object.values(mapping.tables ?? {}).some((t) => t.callerFilled?.length)) return testCase;
  const fill = (step: DataStep): DataStep => {
    const request = withCallerFilled(mapping, step.caller, step.request);
    return request === step.request ? step : { ...step, request };
  };
  if (!testCase.steps.some((s) => fill(s) !== s)) return testCase;
  const steps: DataStep[] = [];
  let world = testCase.world;
  await run(async (step) => {
    const filled = fill(step);
    steps.push(filled);
    world = predict(oracle, world, filled.caller, filled.request).world;
    return world;
  });
  return withModelRun({ world: testCase.world, steps }, (execute) => run((step) => execute(fill(step))));
}
