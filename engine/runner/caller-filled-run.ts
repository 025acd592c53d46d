/**
 * A model run's case (fc.commands: the VS lifecycle) on a target whose BEFORE INSERT triggers set
 * columns from auth.uid() (Oracle.callerFilled). Its steps were compiled on the pack's model,
 * which keeps the bodies as drawn; the engine's prediction stores the caller instead, which
 * changes the worlds the later commands are drawn from, so the run would no longer send the
 * case's steps. Compiled again instead, on the engine's predictions (kept with the steps: the
 * check reuses them); the steps go out as drawn.
 */
import type { Oracle } from '../pack.ts';
import { callerFilledRequest } from '../model/predict.ts';
import { predictAndKeep } from './case-predictions.ts';
import { modelRunOf, withModelRun, type DataCase, type DataStep, type ModelRunHook } from './data-case.ts';

export async function withCallerFilledRun(oracle: Oracle, testCase: DataCase): Promise<DataCase> {
  const run = modelRunOf(testCase);
  if (!run || !oracle.callerFilled || !testCase.steps.some((s) => callerFilledRequest(oracle, s.caller, s.request) !== s.request)) return testCase;
  return compiledAgain(oracle, testCase.world, run);
}

/** A model run's case compiled again from `world` on the engine's predictions (kept with its steps), `run` its hook. */
export async function compiledAgain(oracle: Oracle, world: DataCase['world'], run: ModelRunHook): Promise<DataCase> {
  const steps: DataStep[] = [];
  let after = world;
  await run(async (step) => {
    steps.push(step);
    after = predictAndKeep(oracle, after, step).world;
    return after;
  });
  return withModelRun({ world, steps }, run);
}
