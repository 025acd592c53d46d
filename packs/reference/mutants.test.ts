/**
 * Every broken variant in db/mutants must be killed by a property it names, at default
 * settings (`npm test`: the first per lead property; `npm run test:long`: all). Prints, per variant, which property killed it and how long that took.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceOracle } from './model/index.ts';
import { loadMigrationFolder } from '../../engine/db/migrations.ts';
import type { DatabaseServer } from '../../engine/db/providers/server.ts';
import { BUNDLED_MIGRATIONS, BUNDLED_MUTANTS } from '../../cli/paths.ts';
import { killMutant, type KillResult } from '../../engine/mutants/kill.ts';
import { loadMutants } from '../../engine/mutants/mutant-files.ts';
import { sharedServer } from '../../testing/shared-server.ts';
import { dataProperties } from './properties.ts';
import { referencePack } from './index.ts';
import { catalogPropertiesOf } from '../../engine/run/index.ts';

const all = loadMutants(BUNDLED_MUTANTS);
/** The pack's catalog halves and the engine's own (the security lints), as `policyfuzz mutants` runs them. */
const catalogProperties = catalogPropertiesOf(referencePack);
/** Reclassified: their bug cannot be reached through REST (the header says why); not run. */
const reachable = all.filter((m) => !m.unreachable);
/**
 * `npm test` kills, for each property a mutant's header names first, the first such mutant (21 of
 * 129: every property shown to catch a bug, in a sixth of the time); `npm run test:long`
 * (POLICYFUZZ_LONG_TESTS=1) kills every one, as `bench/early-stop-kills.ts` does.
 */
const mutants = process.env.POLICYFUZZ_LONG_TESTS === '1' ? reachable : reachable.filter((m, i) => reachable.findIndex((x) => x.rules[0] === m.rules[0]) === i);
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
    for (const m of all) expect([...dataProperties, ...catalogProperties].some((p) => m.rules.includes(p.id)), m.name).toBe(true);
  });

  it('a mutant reclassified as unreachable says why, and its rule has mutants that are run', () => {
    for (const m of all.filter((x) => x.unreachable)) {
      expect(m.unreachable!.length, m.name).toBeGreaterThan(40);
      expect(reachable.some((x) => x.rules.some((r) => m.rules.includes(r))), m.name).toBe(true);
    }
  });

  it.each(mutants.map((m) => [m.name, m] as const))('%s is killed', async (_name, mutant) => {
    const result = await killMutant(mutant, { server, target: { migrations, oracle: referenceOracle, supabaseCompat: true }, properties: dataProperties, catalogProperties, seed: 1, runs: 300, shrink: false });
    results.push(result);
    expect(result.notes).toEqual([]);
    expect(result.killedBy.length, `${mutant.name} survived: ${mutant.bug}`).toBeGreaterThan(0);
  });
});
