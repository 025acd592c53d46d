/**
 * `tsx bench/early-stop-why.ts`: why the reference's data properties do or do not saturate. Each
 * property runs as pr runs it (seed 1, 2 worker lanes, 300 cases) in tranches of 50, and at each
 * one this prints what keeps it from early stop (engine/runner/budget.ts saturationGaps: a clause
 * side or model branch never reached, an outcome class or kind of request new since the tranche
 * before) or SATURATED. pr judges only at its minimum (100); the later rows show where a property
 * that runs on would saturate. BENCH_SEED, BENCH_PROPERTIES (ids, comma-separated) and BENCH_STEP
 * override. Minutes, not a test.
 */
import { referenceOracle } from '../packs/reference/model/index.ts';
import { dataProperties } from '../packs/reference/properties.ts';
import { loadMigrationFolder } from '../engine/db/migrations.ts';
import { startDatabaseServer } from '../engine/db/providers/index.ts';
import { BUNDLED_MIGRATIONS } from '../cli/paths.ts';
import { openSession } from '../engine/run/session.ts';
import { joinPasses, saturationGaps } from '../engine/runner/budget.ts';
import type { PropertyResult } from '../engine/runner/result.ts';

const RUNS = 300;
const STEP = Number(process.env.BENCH_STEP ?? 50);
const SEED = Number(process.env.BENCH_SEED ?? 1);
const kept = process.env.BENCH_PROPERTIES?.split(',');

const migrations = loadMigrationFolder(BUNDLED_MIGRATIONS);
const server = await startDatabaseServer({});
try {
  const session = await openSession({ target: { migrations, oracle: referenceOracle, supabaseCompat: true }, server, workers: 2 });
  try {
    const properties = session.fit(dataProperties.filter((p) => !kept || kept.includes(p.id)), SEED).flatMap((f) => (f.runnable ? [f.property] : []));
    for (const property of properties) {
      console.log(property.id);
      let joined: PropertyResult | undefined;
      for (let tranche = STEP; tranche <= RUNS; tranche += STEP) {
        const r = await session.run(property, { seed: SEED, runs: RUNS, stopAtFirst: true, shrink: false, lanes: { first: 0, total: 2 }, tranche, ...(joined?.progress ? { resume: joined.progress } : {}) });
        const before = joined;
        joined = joined ? joinPasses(joined, r) : r;
        const gaps = before ? saturationGaps(before, joined) : saturationGaps({ ...joined, counts: {}, access: {} }, joined).filter((g) => !g.startsWith('new '));
        console.log(`  @${joined.cases}${joined.status === 'passed' ? '' : ` ${joined.status}`}: ${gaps.join('; ') || 'SATURATED'}`);
      }
    }
  } finally {
    await session.close();
  }
} finally {
  await server.stop();
}
