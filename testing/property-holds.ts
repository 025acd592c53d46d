/**
 * The test every data-layer property carries, through this one helper: on the reference
 * database it holds at pr-profile size, its cases reach both the allow side and the deny side of
 * its rule, and every labelled clause of the rule is reached at least MIN_CLAUSE_REACH times on
 * each side (applyCoverageGate, ClauseTally). A rule with a catalog half (the grant rules) adds
 * that the catalog agrees with the model on both granted and withheld privileges.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceOracle } from '../packs/reference/model/index.ts';
import { applyCoverageGate } from '../engine/runner/coverage.ts';
import type { DataProperty } from '../engine/runner/data-property.ts';
import type { Environment } from '../engine/runner/environment.ts';
import { runDataProperty } from '../engine/runner/run-data-property.ts';
import type { PropertyResult } from '../engine/runner/result.ts';
import { runCatalogProperty, type CatalogProperty } from '../engine/runner/catalog-property.ts';
import { referenceEnvironment } from './reference.ts';

/** Issue 11: every clause reached at least this often per side in the pr profile's 300 cases. */
export const MIN_CLAUSE_REACH = 5;

export async function expectHoldsWithCoverage(env: Environment, property: DataProperty, options: { seed?: number; runs?: number } = {}): Promise<PropertyResult> {
  const result = applyCoverageGate(await runDataProperty(env, property, { seed: options.seed ?? 2, runs: options.runs ?? 300, oracle: referenceOracle }));
  expect(result.failure?.message ?? result.note).toBeUndefined();
  expect(result.status).toBe('passed');
  expect(result.counts.allowed).toBeGreaterThan(0);
  expect(result.counts.rejected + result.counts.filtered).toBeGreaterThan(0);
  const short = (result.clauses ?? []).filter((c) => c.allowed < MIN_CLAUSE_REACH || c.refused < MIN_CLAUSE_REACH);
  expect(short.map((c) => `${c.id}: allowed ${c.allowed}, refused ${c.refused}`)).toEqual([]);
  return result;
}

function withoutKey<T>(record: Record<string, T>, key: string): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([k]) => k !== key));
}

/** Both halves of a grant rule on the reference database: the data half with coverage, the catalog half passing with grants seen on both sides. */
export function describeBothHalvesHold(data: DataProperty, catalog: CatalogProperty, titles: { data: string; catalog: string }): void {
  describe(`${data.id} on the reference database`, () => {
    let env: Environment;
    beforeAll(async () => {
      env = await referenceEnvironment();
    });
    afterAll(() => env?.close());

    it(`data: ${titles.data}`, async () => {
      await expectHoldsWithCoverage(env, data);
    });

    it(`catalog: ${titles.catalog}`, async () => {
      const result = await runCatalogProperty(env, catalog, { seed: 2, ...referenceOracle });
      expect(result.failure?.message).toBeUndefined();
      expect(result.status).toBe('passed');
      expect(result.counts.allowed).toBeGreaterThan(0);
      expect(result.counts.rejected).toBeGreaterThan(0);
      // It compares with the run's model (a pack's, with what extendPack added), not the bundled
      // one: an object the run's model lacks is named as such.
      const { model } = referenceOracle;
      const table = Object.keys(model.tables).find((t) => !t.includes('.') && !model.tables[t].view)!;
      // One no policy calls: a policy helper the model lacks is accepted, named in the note (catalog.ts compareFunctions).
      const fn = Object.keys(model.functions).find((f) => !f.includes('.') && f.startsWith('get_'))!;
      const lacking = { ...model, tables: withoutKey(model.tables, table), functions: withoutKey(model.functions, fn) };
      const narrower = await runCatalogProperty(env, catalog, { seed: 2, model: lacking, settings: referenceOracle.settings });
      expect(narrower.failure?.message).toMatch(new RegExp(`\\b(${table}|${fn})\\b.*not in the model`));
    });
  });
}
