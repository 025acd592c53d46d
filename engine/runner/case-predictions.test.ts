/**
 * One walk over a case's steps (case-predictions.ts): guided generation, prepareCase and the
 * coverage tallies read the model's answers to a drawn case from the one walk made for it; a
 * model run's (steps drawn as it runs) are not kept; its compile's answers are kept per step,
 * reused only for the same oracle, world and step.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { referenceOracle } from '../../packs/reference/model/index.ts';
import { R03 } from '../../packs/reference/rules/R03-vs-submitter-guard/property.ts';
import type { Oracle } from '../pack.ts';
import { casePredictions, predictStep, predictSteps } from './case-predictions.ts';
import { vsLifecycleCases } from '../../packs/reference/lifecycle/vs-lifecycle.ts';
import { GUIDE_AFTER, laneArbitrary } from './guided.ts';
import type { DataCase } from './data-case.ts';

/** The reference oracle, counting the model's lookups of a table or function (one per step predicted). */
function countingOracle(): { oracle: Oracle; lookups: () => number } {
  let n = 0;
  const model = new Proxy(referenceOracle.model, {
    get(target, key, receiver) {
      if (key === 'tables' || key === 'functions') n++;
      return Reflect.get(target, key, receiver);
    },
  });
  return { oracle: { ...referenceOracle, model }, lookups: () => n };
}

describe("a case's predictions", () => {
  it('are made once: asked again (prepareCase, the tallies) they are the same answers, not a second walk', () => {
    const { oracle, lookups } = countingOracle();
    const [testCase] = fc.sample(R03.cases(referenceOracle.settings), { seed: 3, numRuns: 1 });
    const first = predictSteps(oracle, testCase);
    const made = lookups();
    expect(made).toBeGreaterThan(0);
    expect(predictSteps(oracle, testCase)).toBe(first);
    expect(casePredictions(testCase, oracle)).toEqual(first.map((s) => ('prediction' in s ? s.prediction : undefined)));
    expect(lookups()).toBe(made);
    // Another oracle (another target's settings) predicts for itself.
    expect(predictSteps(referenceOracle, testCase)).not.toBe(first);
  });

  it("a guided lane's read of a drawn case's branches is the walk the check then reads", () => {
    const { oracle, lookups } = countingOracle();
    const drawn: DataCase[] = fc.sample(laneArbitrary(R03, oracle, R03.cases(oracle.settings)), { seed: 1, numRuns: GUIDE_AFTER + 5 });
    const during = lookups();
    for (const c of drawn) predictSteps(oracle, c);
    expect(lookups()).toBe(during);
  });

  it("a model run's compiled answers are reused by the check for the same oracle, world and step only", () => {
    const { oracle, lookups } = countingOracle();
    const testCase = fc.sample(vsLifecycleCases(oracle.settings, 16, oracle), { seed: 4, numRuns: 20 }).find((c) => c.steps.length > 1)!;
    expect(testCase).toBeDefined();
    const compiled = lookups();
    let world = testCase.world;
    const kept = testCase.steps.map((step) => {
      const p = predictStep(oracle, world, step);
      world = p.world;
      return p;
    });
    expect(lookups()).toBe(compiled);
    // Made again: a step edited (shrunk or rewritten: another object), another world, another oracle — the same answers.
    const [step] = testCase.steps;
    expect(predictStep(oracle, testCase.world, { ...step })).not.toBe(kept[0]);
    expect(predictStep(oracle, { ...testCase.world }, step)).not.toBe(kept[0]);
    expect(lookups()).toBeGreaterThan(compiled);
    expect(predictStep(referenceOracle, testCase.world, step)).toEqual(kept[0]);
  });
});
