import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../../../../engine/runner/environment.ts';
import { referenceEnvironment } from '../../../../testing/reference.ts';
import { expectHoldsWithCoverage } from '../../../../testing/property-holds.ts';
import { defaultSettings, ModelSettingsSchema } from '../../model/settings.ts';
import { R01 } from './property.ts';
import { runDataProperty } from '../../../../engine/runner/run-data-property.ts';
import { applyCoverageGate } from '../../../../engine/runner/coverage.ts';
import { referenceOracleWith } from '../../model/index.ts';

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

describe('R01 cases (setting ownerGuardCases)', () => {
  const tablesOf = (settings: typeof defaultSettings) => fc.sample(R01.cases(settings), { seed: 7, numRuns: 40 }).map((c) => new Set(c.steps.map((s) => ('table' in s.request ? s.request.table : ''))).size);

  it('all-tables (the default) patches every guarded table in one case; one-table (init writes it for a project) one table per case', () => {
    expect(Math.min(...tablesOf(defaultSettings))).toBeGreaterThan(1);
    expect(tablesOf(ModelSettingsSchema.parse({ ownerGuardCases: 'one-table' }))).toEqual(Array(40).fill(1));
  });

  it('one-table holds on the reference, every table’s clause reached on both sides', async () => {
    const result = applyCoverageGate(await runDataProperty(env, R01, { seed: 2, runs: 200, oracle: referenceOracleWith(ModelSettingsSchema.parse({ ownerGuardCases: 'one-table' })) }));
    expect(result.failure?.message ?? result.note).toBeUndefined();
    expect(result.status).toBe('passed');
  });
});
