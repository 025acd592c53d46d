import { afterAll, beforeAll, describe, it } from 'vitest';
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
