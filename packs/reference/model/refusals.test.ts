/**
 * Against real Postgres: a project whose owner guard refuses another allowed way (SQLSTATE
 * 42501 and its own wording) gets a failure naming the settings, and none once it sets them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrationFolder } from '../../../engine/db/migrations.ts';
import { applyEdits } from '../../../engine/mutants/mutant-files.ts';
import { openEnvironment, type Environment } from '../../../engine/runner/environment.ts';
import { runDataProperty } from '../../../engine/runner/run-data-property.ts';
import { BUNDLED_MIGRATIONS } from '../../../cli/paths.ts';
import { sharedServer } from '../../../testing/shared-server.ts';
import { R02 } from '../rules/R02-users-role/property.ts';
import { referenceOracle, referenceOracleWith } from './index.ts';
import { ModelSettingsSchema } from './settings.ts';

const GUARD = `    raise exception '%: % may not be changed by the %', table_name, array_to_string(changed, ', '), changer
      using errcode = 'P0001', hint = 'privileged column';`;

let env: Environment;
beforeAll(async () => {
  const edit = (replace: string) => ({ file: '0001_private_helpers.sql', find: GUARD, replace });
  const migrations = applyEdits({ name: 'guard-refuses-with-42501', edits: [edit(`    raise exception 'permission to change % on % refused', array_to_string(changed, ', '), table_name using errcode = '42501';`)] }, loadMigrationFolder(BUNDLED_MIGRATIONS));
  env = await openEnvironment({ server: await sharedServer(), migrations, workers: 1 });
});
afterAll(() => env?.close());

describe('refusal mechanism and text are settings', () => {
  it('with the defaults, the failure names the setting to change', async () => {
    const r = await runDataProperty(env, R02, { seed: 5, runs: 100, oracle: referenceOracle });
    expect(r.status).toBe('failed');
    expect(r.failure?.message).toMatch(/error 42501, model expected P0001 \(the "privileged-column" refusal; setting refusals.codes.privileged-column\)/);
  });

  it("with the project's choice in settings, no false alarm", async () => {
    const settings = ModelSettingsSchema.parse({ refusals: { codes: { 'privileged-column': '42501' }, messages: { 'privileged-column': '^permission to change .* refused$' } } });
    const r = await runDataProperty(env, R02, { seed: 5, runs: 100, oracle: referenceOracleWith(settings) });
    expect(r.failure?.message ?? r.note).toBeUndefined();
    expect(r.status).toBe('passed');
  });

  it('a pinned wording is compared too: right code, other wording names refusals.messages', async () => {
    const settings = ModelSettingsSchema.parse({ refusals: { codes: { 'privileged-column': '42501' }, messages: { 'privileged-column': 'may not be changed' } } });
    const r = await runDataProperty(env, R02, { seed: 5, runs: 100, oracle: referenceOracleWith(settings) });
    expect(r.status).toBe('failed');
    expect(r.failure?.message).toMatch(/does not match \/may not be changed\/, the "privileged-column" refusal \(setting refusals.messages.privileged-column\)/);
  });
});
