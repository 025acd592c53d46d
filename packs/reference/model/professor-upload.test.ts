/**
 * Against real Postgres: rule 10 leaves open when a professor may upload; a project that also
 * accepts uploads on an already-signed request gets a failure with the defaults and none once
 * it names its choice (settings.projects.professorUpload.requestStatuses).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrationFolder } from '../../../engine/db/migrations.ts';
import { applyEdits } from '../../../engine/mutants/mutant-files.ts';
import { openEnvironment, type Environment } from '../../../engine/runner/environment.ts';
import { runDataProperty } from '../../../engine/runner/run-data-property.ts';
import { BUNDLED_MIGRATIONS } from '../../../cli/paths.ts';
import { sharedServer } from '../../../testing/shared-server.ts';
import { R10 } from '../rules/R10-projects/property.ts';
import { referenceOracle, referenceOracleWith } from './index.ts';
import { ModelSettingsSchema } from './settings.ts';

let env: Environment;
beforeAll(async () => {
  const edit = { file: '0400_projects.sql', find: "where r.project_id = p_project_id and r.professor_id = auth.uid() and r.status = 'pending'", replace: "where r.project_id = p_project_id and r.professor_id = auth.uid() and r.status in ('pending', 'signed')" };
  env = await openEnvironment({ server: await sharedServer(), migrations: applyEdits({ name: 'upload-on-signed-requests', edits: [edit] }, loadMigrationFolder(BUNDLED_MIGRATIONS)), workers: 1 });
});
afterAll(() => env?.close());

describe('professor upload conditions are a setting', () => {
  it('with the defaults, the other choice is a failure', async () => {
    const r = await runDataProperty(env, R10, { seed: 2, runs: 300, oracle: referenceOracle });
    expect(r.status).toBe('failed');
  });

  it('with projects.professorUpload.requestStatuses set, no false alarm', async () => {
    const settings = ModelSettingsSchema.parse({ projects: { professorUpload: { requestStatuses: ['pending', 'signed'] } } });
    const r = await runDataProperty(env, R10, { seed: 2, runs: 300, oracle: referenceOracleWith(settings) });
    expect(r.failure?.message ?? r.note).toBeUndefined();
    expect(r.status).toBe('passed');
  });
});
