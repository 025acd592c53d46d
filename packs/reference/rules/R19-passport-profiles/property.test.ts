import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Environment } from '../../../../engine/runner/environment.ts';
import { referenceEnvironment } from '../../../../testing/reference.ts';
import { expectHoldsWithCoverage } from '../../../../testing/property-holds.ts';
import { R19 } from './property.ts';

let env: Environment;
beforeAll(async () => {
  env = await referenceEnvironment();
});
afterAll(() => env?.close());

describe('R19 on the reference database', () => {
  it('holds, and its cases reach both the allow and the deny side', async () => {
    await expectHoldsWithCoverage(env, R19);
  });
});
