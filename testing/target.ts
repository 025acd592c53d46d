/**
 * The target a saved failure was found on, rebuilt on the test run's shared server: its config
 * (settings, migration folders, fixture plan) or its migrations folder; the bundled reference
 * database when neither is named. Generated regression tests use it (engine/failures/regression-test.ts).
 */
import { BUNDLED_MIGRATIONS } from '../cli/paths.ts';
import { resolveTarget } from '../engine/config/target.ts';
import type { Oracle } from '../engine/pack.ts';
import { openEnvironment, type Environment } from '../engine/runner/environment.ts';
import { referencePack } from '../packs/reference/index.ts';
import { sharedServer } from './shared-server.ts';

export async function targetEnvironment(pinned: { config?: string | null; migrations?: string | null }): Promise<{ env: Environment; oracle: Oracle }> {
  const target = await resolveTarget(referencePack, { config: pinned.config ?? undefined, migrations: pinned.migrations ?? BUNDLED_MIGRATIONS, explicitMigrations: true });
  const env = await openEnvironment({ server: await sharedServer(), migrations: target.migrations, supabaseCompat: target.supabaseCompat, fixtures: target.fixtures });
  return { env, oracle: target.oracle };
}
