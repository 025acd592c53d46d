/**
 * Every broken variant in db/mutants must be killed by a property it names, at default
 * settings. Prints, per variant, which property killed it and how long that took.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrationFolder } from '../../harness/db/migrations.ts';
import type { DatabaseServer } from '../../harness/db/providers/server.ts';
import { BUNDLED_MIGRATIONS, BUNDLED_MUTANTS } from '../../harness/cli/paths.ts';
import { killMutant, type KillResult } from '../../harness/mutants/kill.ts';
import { loadMutants } from '../../harness/mutants/mutant-files.ts';
import { sharedServer } from '../../harness/testing/shared-server.ts';
import { defaultSettings } from '../../model/settings.ts';
import { catalogProperties, dataProperties } from '../../properties/index.ts';

const mutants = loadMutants(BUNDLED_MUTANTS);
const migrations = loadMigrationFolder(BUNDLED_MIGRATIONS);
const results: KillResult[] = [];
let server: DatabaseServer;

beforeAll(async () => {
  server = await sharedServer();
});
afterAll(() => {
  console.log(results.map((r) => `${r.mutant}: ${r.killedBy.length ? `killed by ${r.killedBy.join(', ')} in ${r.timeToKillMs} ms` : 'SURVIVED'}`).join('\n'));
});

describe('mutants', () => {
  it('every mutant names at least one property that exists', () => {
    for (const m of mutants) expect(dataProperties.some((p) => m.rules.includes(p.id)), m.name).toBe(true);
  });

  it.each(mutants.map((m) => [m.name, m] as const))('%s is killed', async (_name, mutant) => {
    const result = await killMutant(mutant, { server, migrations, properties: dataProperties, catalogProperties, settings: defaultSettings, seed: 1, runs: 300 });
    results.push(result);
    expect(result.notes).toEqual([]);
    expect(result.killedBy.length, `${mutant.name} survived: ${mutant.bug}`).toBeGreaterThan(0);
  });
});
