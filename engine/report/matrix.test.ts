/**
 * The access matrix: built from real runs on the reference database, its totals equal the
 * steps the run counted (property by property and in all), a disagreement shows in its row, and
 * it prints as Markdown with a column per caller class.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceOracle } from '../../packs/reference/model/index.ts';
import { R02 } from '../../packs/reference/rules/R02-users-role/property.ts';
import { R05 } from '../../packs/reference/rules/R05-insert-representation/property.ts';
import { BUNDLED_MUTANTS } from '../../cli/paths.ts';
import { referenceEnvironment } from '../../testing/reference.ts';
import { loadMigrationFolder } from '../db/migrations.ts';
import type { Environment } from '../runner/environment.ts';
import { runDataProperty } from '../runner/run-data-property.ts';
import { accessMatrix, matrixMarkdown, matrixSteps } from './matrix.ts';
import { mergeSummaries, propertySummary, runSummary, type PropertySummary } from './summary.ts';

const mutant = loadMigrationFolder(path.join(BUNDLED_MUTANTS, 'R02-users-role', 'mutants')).find((m) => m.name === 'R02-guard-trigger-dropped.sql')!;
let fixed: Environment;
let broken: Environment;
let summaries: PropertySummary[];
const ctx = { policyfuzzVersion: 'test', seed: 7, profile: 'pr', shard: { index: 1, count: 1 }, migrations: null, migrationsDigest: null, startedAt: new Date(), timeBudgetMs: null };
const steps = (p: PropertySummary) => Object.values(p.counts).reduce((a, b) => a + b, 0);

beforeAll(async () => {
  [fixed, broken] = await Promise.all([referenceEnvironment(), referenceEnvironment({ extra: [mutant] })]);
  const r02 = await runDataProperty(fixed, R02, { seed: 7, runs: 80, oracle: referenceOracle });
  const r05 = await runDataProperty(fixed, R05, { seed: 7, runs: 80, oracle: referenceOracle });
  const bad = await runDataProperty(broken, R02, { seed: 3, runs: 300, oracle: referenceOracle });
  expect([r02.status, r05.status, bad.status]).toEqual(['passed', 'passed', 'failed']);
  summaries = [propertySummary(r02), propertySummary(r05), { ...propertySummary(bad, { id: 'R02-000000000000', replay: '', file: null, reproSql: null, regressionFile: null }), id: 'R02b' }];
});
afterAll(async () => {
  await Promise.all([fixed?.close(), broken?.close()]);
});

describe('access matrix', () => {
  it('totals equal the steps the run counted, per property and in all', () => {
    for (const p of summaries) expect(matrixSteps(accessMatrix([p])), p.id).toBe(steps(p));
    const matrix = runSummary(summaries, ctx).matrix!;
    expect(matrixSteps(matrix as never)).toBe(summaries.reduce((n, p) => n + steps(p), 0));
    expect(matrixSteps(matrix as never)).toBeGreaterThan(100);
    for (const row of matrix) expect(row.steps).toBe(Object.values(row.outcomes).reduce((a, b) => a + b, 0));
    // Merging two shards adds their matrices up.
    const copy = (p: PropertySummary) => ({ ...p, access: { ...p.access } });
    const merged = mergeSummaries([runSummary(summaries.map(copy), ctx), runSummary(summaries.map(copy), { ...ctx, shard: { index: 2, count: 2 } })]);
    expect(matrixSteps(merged.matrix as never)).toBe(2 * matrixSteps(matrix as never));
  });

  it('says who can do what, and marks the disagreement of a failure in its row', () => {
    const matrix = accessMatrix(summaries);
    const users = matrix.filter((r) => r.target === 'users' && r.command === 'update');
    expect(users.map((r) => r.caller)).toContain('authenticated');
    const disagreement = matrix.flatMap((r) => r.disagreements.map((d) => ({ ...d, row: `${r.target} ${r.command} ${r.caller}` })));
    expect(disagreement).toEqual([{ property: 'R02b', model: 'raised', database: 'allowed', failure: 'R02-000000000000', row: 'users update authenticated' }]);
    const md = matrixMarkdown(matrix);
    expect(md.split('\n')[0]).toBe('| table / function | command | anon | authenticated | service_role |');
    expect(md).toMatch(/^\| `users` \| update \| .*⚠ R02b: model raised → database allowed/m);
    expect(md).toContain(`${matrixSteps(matrix)} steps judged by the model; ⚠ 1 disagreement(s).`);
  });
});
