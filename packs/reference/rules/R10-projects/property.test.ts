import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceOracle } from '../../model/index.ts';
import { applyCoverageGate } from '../../../../engine/runner/coverage.ts';
import type { Environment } from '../../../../engine/runner/environment.ts';
import { runDataProperty } from '../../../../engine/runner/run-data-property.ts';
import { referenceEnvironment } from '../../../../testing/reference.ts';
import { R10 } from './property.ts';

let env: Environment;
beforeAll(async () => {
  env = await referenceEnvironment();
});
afterAll(() => env?.close());

describe('R10 on the reference database', () => {
  it('holds, and its cases reach both the allow and the deny side', async () => {
    const result = applyCoverageGate(await runDataProperty(env, R10, { seed: 2, runs: 300, oracle: referenceOracle }));
    expect(result.failure?.message).toBeUndefined();
    expect(result.status).toBe('passed');
    expect(result.counts.allowed).toBeGreaterThan(0);
    expect((result.counts.rejected ?? 0) + (result.counts.filtered ?? 0)).toBeGreaterThan(0);
  });
});
