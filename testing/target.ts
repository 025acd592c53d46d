/**
 * The target a saved failure was found on, rebuilt on the test run's shared server: its config
 * (settings, migration folders, fixture plan) or its migration folders (and the pack module it
 * was run with); the bundled reference
 * database when neither is named. Generated regression tests use it (engine/failures/regression-test.ts).
 */
import { BUNDLED_MIGRATIONS } from '../cli/paths.ts';
import { chooseTarget, recordedChoice, type RecordedTarget } from '../engine/config/target.ts';
import { packSource, type Oracle } from '../engine/pack.ts';
import type { Environment } from '../engine/runner/environment.ts';
import { openSession } from '../engine/run/index.ts';
import { referencePack } from '../packs/reference/index.ts';
import { sharedServer } from './shared-server.ts';

export async function targetEnvironment(pinned: Partial<RecordedTarget>): Promise<{ env: Environment; oracle: Oracle }> {
  const { target } = await chooseTarget(packSource(referencePack), recordedChoice({ config: null, migrations: null, ...pinned }, null, {}, BUNDLED_MIGRATIONS));
  const session = await openSession({ target, server: await sharedServer() });
  return { env: session.env, oracle: session.oracle };
}
