import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceOracle } from '../../model/index.ts';
import { loadMigrationFolder, type MigrationFile } from '../../../../engine/db/migrations.ts';
import { applyEdits, loadMutants } from '../../../../engine/mutants/mutant-files.ts';
import { openEnvironment, type Environment } from '../../../../engine/runner/environment.ts';
import { runDataProperty } from '../../../../engine/runner/run-data-property.ts';
import { BUNDLED_MIGRATIONS } from '../../../../cli/paths.ts';
import { referenceEnvironment } from '../../../../testing/reference.ts';
import { sharedServer } from '../../../../testing/shared-server.ts';
import { expectHoldsWithCoverage } from '../../../../testing/property-holds.ts';
import { R20 } from './property.ts';

let env: Environment;
beforeAll(async () => {
  env = await referenceEnvironment();
});
afterAll(() => env?.close());

describe('R20 on the reference database', () => {
  it('holds, and its cases reach both the allow and the deny side', async () => {
    await expectHoldsWithCoverage(env, R20);
  });
});

describe('R20 compares the error text the spec names', () => {
  let copy: Environment | undefined;
  afterAll(() => copy?.close());

  it("fails on a copy of the migrations whose leaderboard says 'forbidden: admins only'", async () => {
    const mutant = loadMutants(path.join(import.meta.dirname, 'mutants')).find((m) => m.name === 'R20-leaderboard-other-error-text')!;
    const migrations: MigrationFile[] = applyEdits(mutant, loadMigrationFolder(BUNDLED_MIGRATIONS));
    expect(migrations.find((m) => m.name === '0430_passport.sql')!.sql).toContain("'forbidden: admins only'");
    copy = await openEnvironment({ server: await sharedServer(), migrations, workers: 1 });
    const result = await runDataProperty(copy, R20, { seed: 3, runs: 40, oracle: referenceOracle });
    expect(result.status).toBe('failed');
    expect(result.failure?.message).toMatch(/error text "forbidden: admins only" does not match .*NOT_AUTHORIZED.* \(spec §7 and rule 20 name the text NOT_AUTHORIZED\)/);
  });
});
