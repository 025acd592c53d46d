/**
 * Copies of the reference migrations rewritten by a test (another way the spec allows, or a
 * fault), each in an environment of its own on the shared server, closed after the file; and a
 * property run on one under given settings. For the tests of the model's settings and of what it
 * compares as the spec states it.
 */
import { afterAll } from 'vitest';
import { referenceOracleWith } from '../packs/reference/model/index.ts';
import { ModelSettingsSchema } from '../packs/reference/model/settings.ts';
import { loadMigrationFolder } from '../engine/db/migrations.ts';
import { applyEdits } from '../engine/mutants/mutant-files.ts';
import { openEnvironment, type Environment } from '../engine/runner/environment.ts';
import { runDataProperty } from '../engine/runner/run-data-property.ts';
import type { DataProperty } from '../engine/runner/data-property.ts';
import type { PropertyResult } from '../engine/runner/result.ts';
import { BUNDLED_MIGRATIONS } from '../cli/paths.ts';
import { sharedServer } from './shared-server.ts';

export interface ReferenceCopies {
  copyWith(name: string, edits: { file: string; find: string; replace: string }[]): Promise<Environment>;
  /**
   * The property on `env` under the reference settings overridden by `settings` (seed 11, 150 runs),
   * its failure unshrunk: these tests judge a verdict and what its message names (a setting, the
   * error), which the first failing case carries; shrinking it cost more than the 150 cases of a
   * run that holds (spec-compared's "no cap at all": 34 s against 16 s, at a load of 20).
   */
  run(env: Environment, property: DataProperty, settings?: unknown): Promise<PropertyResult>;
}

/** Call at a test file's top level: the copies it makes are closed after its tests. */
export function referenceCopies(): ReferenceCopies {
  const copies: Environment[] = [];
  afterAll(async () => {
    for (const c of copies) await c.close();
  });
  return {
    async copyWith(name, edits) {
      const migrations = applyEdits({ name, edits }, loadMigrationFolder(BUNDLED_MIGRATIONS));
      const env = await openEnvironment({ server: await sharedServer(), migrations, workers: 1 });
      copies.push(env);
      return env;
    },
    run: (env, property, settings = {}) => runDataProperty(env, property, { seed: 11, runs: 150, shrink: false, oracle: referenceOracleWith(ModelSettingsSchema.parse(settings)) }),
  };
}
