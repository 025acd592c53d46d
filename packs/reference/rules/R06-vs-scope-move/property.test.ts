import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { predictSteps } from '../../../../engine/runner/case-predictions.ts';
import { referenceOracle } from '../../model/index.ts';
import type { Environment } from '../../../../engine/runner/environment.ts';
import { referenceEnvironment } from '../../../../testing/reference.ts';
import { expectHoldsWithCoverage } from '../../../../testing/property-holds.ts';
import { R06 } from './property.ts';

let env: Environment;
beforeAll(async () => {
  env = await referenceEnvironment();
});
afterAll(() => env?.close());

describe('R06 on the reference database', () => {
  it('holds, and its cases reach each clause on both sides', async () => {
    await expectHoldsWithCoverage(env, R06, { seed: 6 });
  });
});

describe('R06 draws max-affected on both sides', () => {
  it('within the limit (moved) and over it (PGRST124), as the model answers its cases', () => {
    const sides = new Set<string>();
    for (const seed of [1, 2]) {
      for (const c of fc.sample(R06.cases(referenceOracle.settings), { seed, numRuns: 300 })) {
        const r = c.steps[0].request;
        if (r.kind !== 'update' || r.maxAffected === undefined) continue;
        const p = predictSteps(referenceOracle, c)[0];
        const o = 'prediction' in p ? p.prediction.outcome : undefined;
        if (o?.kind === 'allowed' && o.affected > 0) sides.add('within');
        if (o?.kind === 'error' && o.code === 'PGRST124') sides.add('over');
      }
    }
    expect([...sides].sort()).toEqual(['over', 'within']);
  });
});
