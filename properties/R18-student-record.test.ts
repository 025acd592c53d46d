import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../model/settings.ts';
import { applyCoverageGate } from '../harness/runner/coverage.ts';
import type { Environment } from '../harness/runner/environment.ts';
import { runDataProperty } from '../harness/runner/run-data-property.ts';
import { referenceEnvironment } from '../harness/testing/reference.ts';
import { R18 } from './R18-student-record.ts';

let env: Environment;
beforeAll(async () => {
  env = await referenceEnvironment();
});
afterAll(() => env?.close());

describe('R18 on the reference database', () => {
  it('holds, and its cases reach both the allow and the deny side', async () => {
    const result = applyCoverageGate(await runDataProperty(env, R18, { seed: 2, runs: 300, settings: defaultSettings }));
    expect(result.failure?.message).toBeUndefined();
    expect(result.status).toBe('passed');
    expect(result.counts.allowed).toBeGreaterThan(0);
    expect((result.counts.rejected ?? 0) + (result.counts.filtered ?? 0)).toBeGreaterThan(0);
  });
});
