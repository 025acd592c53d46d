import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceOracle, referenceOracleWith } from '../../model/index.ts';
import { ModelSettingsSchema } from '../../model/settings.ts';
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
    // Unshrunk: the verdict and the error text it names are the first failing case's.
    const result = await runDataProperty(copy, R20, { seed: 3, runs: 40, shrink: false, oracle: referenceOracle });
    expect(result.status).toBe('failed');
    expect(result.failure?.message).toMatch(/error text "forbidden: admins only" does not match .*NOT_AUTHORIZED.* \(spec §7 and rule 20 name the text NOT_AUTHORIZED\)/);
  });
});

describe("R20's SQLSTATE is the project's not-authorized code (§7 names the text only)", () => {
  // After stranger-app-6: `raise exception 'NOT_AUTHORIZED' using errcode = 'insufficient_privilege'`
  // failed with refusals.codes.not-authorized = 42501 set (the model raised P0001 whatever the settings).
  // Every NOT_AUTHORIZED of the reference raised so (the setting is the project's, for every function), the leaderboard's with `text`.
  const withCode = (text: string): MigrationFile[] =>
    loadMigrationFolder(BUNDLED_MIGRATIONS).map((m) => {
      const sql = m.sql.replaceAll("raise exception 'NOT_AUTHORIZED' using errcode = 'P0001'", "raise exception 'NOT_AUTHORIZED' using errcode = 'insufficient_privilege'");
      return { ...m, sql: m.name === '0430_passport.sql' ? sql.replace("raise exception 'NOT_AUTHORIZED'", `raise exception '${text}'`) : sql };
    });
  const opened: Environment[] = [];
  afterAll(async () => {
    for (const e of opened) await e.close();
  });
  const run = async (text: string, codes: Record<string, string>) => {
    const e = await openEnvironment({ server: await sharedServer(), migrations: withCode(text), workers: 1 });
    opened.push(e);
    // Unshrunk: the verdict and the setting or text the message names are the first failing case's.
    return runDataProperty(e, R20, { seed: 3, runs: 40, shrink: false, oracle: referenceOracleWith(ModelSettingsSchema.parse({ refusals: { codes } })) });
  };

  it('holds with refusals.codes.not-authorized = 42501; without it, the failure names that setting', async () => {
    const set = await run('NOT_AUTHORIZED', { 'not-authorized': '42501' });
    expect(set.failure?.message ?? set.note).toBeUndefined();
    expect(set.status).toBe('passed');
    const unset = await run('NOT_AUTHORIZED', {});
    expect(unset.status).toBe('failed');
    expect(unset.failure?.message).toMatch(/error 42501, model expected P0001.*refusals\.codes\.not-authorized/);
  });

  it('the text stays the spec’s: 42501 with another text fails under the same setting', async () => {
    const r = await run('forbidden: admins only', { 'not-authorized': '42501' });
    expect(r.status).toBe('failed');
    expect(r.failure?.message).toMatch(/does not match .*NOT_AUTHORIZED/);
  });
});
