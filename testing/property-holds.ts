/**
 * The test every data-layer property carries: on the reference database it holds, and its
 * cases reach both the allow side and the deny side of its rule (applyCoverageGate).
 */
import { expect } from 'vitest';
import { referenceOracle } from '../packs/reference/model/index.ts';
import { applyCoverageGate } from '../engine/runner/coverage.ts';
import type { DataProperty } from '../engine/runner/data-property.ts';
import type { Environment } from '../engine/runner/environment.ts';
import { runDataProperty } from '../engine/runner/run-data-property.ts';
import type { PropertyResult } from '../engine/runner/result.ts';

export async function expectHoldsWithCoverage(env: Environment, property: DataProperty, options: { seed?: number; runs?: number } = {}): Promise<PropertyResult> {
  const result = applyCoverageGate(await runDataProperty(env, property, { seed: options.seed ?? 2, runs: options.runs ?? 300, oracle: referenceOracle }));
  expect(result.failure?.message ?? result.note).toBeUndefined();
  expect(result.status).toBe('passed');
  expect(result.counts.allowed).toBeGreaterThan(0);
  expect(result.counts.rejected + result.counts.filtered).toBeGreaterThan(0);
  return result;
}
