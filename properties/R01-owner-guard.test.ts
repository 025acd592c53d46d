import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Environment } from '../harness/runner/environment.ts';
import { referenceEnvironment } from '../harness/testing/reference.ts';
import { expectHoldsWithCoverage } from '../harness/testing/property-holds.ts';
import { R01 } from './R01-owner-guard.ts';

let env: Environment;
beforeAll(async () => {
  env = await referenceEnvironment();
});
afterAll(() => env?.close());

describe('R01 on the reference database', () => {
  it('holds, and its cases reach both the allow and the deny side', async () => {
    await expectHoldsWithCoverage(env, R01, { seed: 2, runs: 300 });
  });
});
