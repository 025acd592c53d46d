/**
 * Issue 11 point 1, done-when: the reference's definer functions set app.vs_trusted so that the
 * guard lets their own write through, then clear it. Under PostgREST the flag ends with the
 * request's transaction anyway, so forgetting to clear it is not a bug there, and the harness
 * must not report one: with every clearing line removed from a copy of the migrations, R07, whose
 * cases follow a function call with a direct PATCH in the same case, still holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrationFolder } from '../../../../engine/db/migrations.ts';
import { openEnvironment, type Environment } from '../../../../engine/runner/environment.ts';
import { runDataProperty } from '../../../../engine/runner/run-data-property.ts';
import { BUNDLED_MIGRATIONS } from '../../../../cli/paths.ts';
import { sharedServer } from '../../../../testing/shared-server.ts';
import { referenceOracle } from '../../model/index.ts';
import { R07 } from './property.ts';

const CLEARING = "  perform set_config('app.vs_trusted', '', true);\n";

let env: Environment;
beforeAll(async () => {
  const migrations = loadMigrationFolder(BUNDLED_MIGRATIONS).map((m) => (m.name === '0200_vs.sql' ? { ...m, sql: m.sql.split(CLEARING).join('') } : m));
  const vs = migrations.find((m) => m.name === '0200_vs.sql')!;
  // The copy really lost every clearing, and still sets the flag.
  expect(vs.sql).not.toContain("set_config('app.vs_trusted', '', true)");
  expect(vs.sql).toContain("set_config('app.vs_trusted', 'on', true)");
  env = await openEnvironment({ server: await sharedServer(), migrations });
});
afterAll(() => env?.close());

describe('a definer function that leaves app.vs_trusted set', () => {
  // Both seeds fail when a kept request's settings survive into the next one (checked by hand).
  it.each([2, 3])('R07 holds (seed %i): the flag does not reach the next request', async (seed) => {
    const result = await runDataProperty(env, R07, { seed, runs: 300, oracle: referenceOracle });
    expect(result.failure?.message).toBeUndefined();
    expect(result.status).toBe('passed');
  });
});
