/**
 * The model's answers to a case's steps: one walk over them, made once per case. Guided
 * generation reads a drawn case's branches from it, prepareCase hands it to the check, and the
 * coverage tallies read it after: a case whose steps are known ahead (not a model run) is
 * predicted once, whoever asks first, and the others read the same answers (pure, so equal).
 */
import type { Prediction } from '../model/predict.ts';
// A world holding a second tenant's copy is predicted per tenant (second-tenant.ts); any other, as the model answers.
import { predictAcrossTenants as predict } from '../target/predict-across-tenants.ts';
import type { Oracle } from '../pack.ts';
import type { World } from '../model/world.ts';
import { modelRunOf, type DataCase, type DataStep } from './data-case.ts';

export type StepPrediction = { prediction: Prediction } | { thrown: unknown };

/** Per oracle, per case object: its steps' answers (a case is never changed once drawn). */
const made = new WeakMap<Oracle, WeakMap<DataCase, StepPrediction[]>>();

/**
 * The model's answer to each step of a case in turn, from its world (pure, no database); stops at
 * the first that throws. `known`: the answers to its first steps when already made (a model
 * run's, as it ran), not made again.
 */
export function predictSteps(oracle: Oracle, testCase: DataCase, known: readonly Prediction[] = []): StepPrediction[] {
  // A model run's steps are drawn as it runs: what it has so far is not the case's last word.
  const ahead = !modelRunOf(testCase);
  const kept = ahead ? made.get(oracle)?.get(testCase) : undefined;
  if (kept) return kept;
  const out: StepPrediction[] = [];
  let world = testCase.world;
  for (const [i, step] of testCase.steps.entries()) {
    try {
      const prediction = known[i] ?? predict(oracle, world, step.caller, step.request);
      out.push({ prediction });
      world = prediction.world;
    } catch (thrown) {
      out.push({ thrown });
      break;
    }
  }
  if (ahead) {
    if (!made.has(oracle)) made.set(oracle, new WeakMap());
    made.get(oracle)!.set(testCase, out);
  }
  return out;
}

/** The model's answers to every step of a case (`known` for its first steps); a step the model cannot answer throws. */
export function casePredictions(testCase: DataCase, oracle: Oracle, known: readonly Prediction[] = []): Prediction[] {
  return predictSteps(oracle, testCase, known).map((s) => {
    if ('thrown' in s) throw s.thrown;
    return s.prediction;
  });
}

/** Per step object: the answer a model run's compile made to it, and the oracle and world it was made by and from. */
const compiled = new WeakMap<DataStep, { oracle: Oracle; before: World; prediction: Prediction }>();

/**
 * The model's answer to a step as a model run compiles its case (fc.commands: the recorder),
 * kept with the step, so the check (predictStep) does not make it again.
 */
export function predictAndKeep(oracle: Oracle, before: World, step: DataStep): Prediction {
  const prediction = predict(oracle, before, step.caller, step.request);
  compiled.set(step, { oracle, before, prediction });
  return prediction;
}

/**
 * The model's answer to one step from `before`: the kept one when it was made by this very oracle
 * from this very world for this very step (the model is pure: the same answer), else made now.
 * A step changed since (shrunk, its ids or callers rewritten for a target) is a new object, and a
 * world changed since (a refusal the model accepted, a stored default) another world: made again.
 */
export function predictStep(oracle: Oracle, before: World, step: DataStep): Prediction {
  const kept = compiled.get(step);
  return kept && kept.oracle === oracle && kept.before === before ? kept.prediction : predict(oracle, before, step.caller, step.request);
}
