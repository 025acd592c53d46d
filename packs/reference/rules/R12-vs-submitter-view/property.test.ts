import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceOracle } from '../../model/index.ts';
import { loadMigrationFolder } from '../../../../engine/db/migrations.ts';
import { applyEdits, loadMutants } from '../../../../engine/mutants/mutant-files.ts';
import { openEnvironment, type Environment } from '../../../../engine/runner/environment.ts';
import { runDataProperty } from '../../../../engine/runner/run-data-property.ts';
import { BUNDLED_MIGRATIONS } from '../../../../cli/paths.ts';
import { referenceEnvironment } from '../../../../testing/reference.ts';
import { sharedServer } from '../../../../testing/shared-server.ts';
import { expectHoldsWithCoverage } from '../../../../testing/property-holds.ts';
import { R12 } from './property.ts';

let env: Environment;
beforeAll(async () => {
  env = await referenceEnvironment();
});
afterAll(() => env?.close());

describe('R12 on the reference database', () => {
  it('holds, and its cases reach both the allow and the deny side', async () => {
    await expectHoldsWithCoverage(env, R12, { seed: 12 });
  });
});

describe('the auto-close remark is checked as "carries no ticket id", not as one wording', () => {
  const copies: Environment[] = [];
  afterAll(async () => {
    for (const c of copies) await c.close();
  });
  const original = "             'text', 'This report was closed because the same problem is already being handled.'))\n";
  async function runWith(replace: string) {
    const migrations = applyEdits({ name: 'auto-close-text', edits: [{ file: '0200_vs.sql', find: original, replace }] }, loadMigrationFolder(BUNDLED_MIGRATIONS));
    const copy = await openEnvironment({ server: await sharedServer(), migrations, workers: 1 });
    copies.push(copy);
    // Unshrunk: the verdict and the message's kind are the first failing case's; shrinking it cost more than a run that holds.
    return runDataProperty(copy, R12, { seed: 12, runs: 150, shrink: false, oracle: referenceOracle });
  }

  it('another generic wording holds', async () => {
    const r = await runWith("             'text', 'Closed: a colleague is already on it.'))\n");
    expect(r.failure?.message ?? r.note).toBeUndefined();
    expect(r.status).toBe('passed');
  });

  it('a wording that names the primary ticket fails', async () => {
    const mutant = loadMutants(path.join(import.meta.dirname, 'mutants')).find((m) => m.name === 'R12-vs-auto-close-remark-has-id')!;
    const r = await runWith(mutant.edits[0].replace);
    expect(r.status).toBe('failed');
    expect(r.failure?.message).toMatch(/returned rows differ/);
  });
});
