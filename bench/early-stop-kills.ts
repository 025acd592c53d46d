/**
 * `tsx bench/early-stop-kills.ts`: does early stop (engine/runner/budget.ts earlyStopReason) cost
 * finding power? Every reachable hand-written mutant of the reference, each property it names run
 * as the pr profile runs it (2 worker lanes, breadth-first tranches, seed 1, 300 cases, minimum
 * 100) with early stop on; a property that stopped early is then run on to its 300 cases (the same
 * cases early stop off would have checked next), and a failure there is a kill early stop lost.
 * Prints each loss, the kill positions (cases at the first failure) and the totals. Minutes, not
 * a test. BENCH_MIN_CASES, BENCH_RUNS, BENCH_SEED, BENCH_ONLY (mutant name substrings, comma-separated) override;
 * BENCH_ALL=1 runs every property on each mutant (the full matrix, as `fuzz` would), not only those it names;
 * BENCH_PROPERTIES (ids, comma-separated) keeps only those properties (with BENCH_ALL: the full matrix's rows for them).
 */
import { referenceOracle } from '../packs/reference/model/index.ts';
import { dataProperties } from '../packs/reference/properties.ts';
import { loadMigrationFolder } from '../engine/db/migrations.ts';
import { startDatabaseServer } from '../engine/db/providers/index.ts';
import { BUNDLED_MIGRATIONS, BUNDLED_MUTANTS } from '../cli/paths.ts';
import { applyEdits, extraSql, loadMutants, unchangedPrefix } from '../engine/mutants/mutant-files.ts';
import { openSession } from '../engine/run/session.ts';
import { runBreadthFirst, tranchesOf } from '../engine/runner/budget.ts';
import type { PropertyResult } from '../engine/runner/result.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const MIN_CASES = Number(process.env.BENCH_MIN_CASES ?? 100);
const SEED = Number(process.env.BENCH_SEED ?? 1);
const WORKERS = 2;

/** How thinly the property's clauses and branches were covered when it stopped: the least-reached side and branch. */
function coverage(r: PropertyResult): string {
  const sides = (r.clauses ?? []).flatMap((c) => [c.allowed, c.refused]);
  const taken = (r.branches ?? []).map((b) => b.taken);
  const least = (xs: number[]) => (xs.length ? Math.min(...xs) : '-');
  return `${r.clauses?.length ?? 0} clauses, least side ${least(sides)}; ${taken.length} branches, least taken ${least(taken)}; outcome classes ${Object.entries(r.counts).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ')}`;
}

const migrations = loadMigrationFolder(BUNDLED_MIGRATIONS);
const target = { migrations, oracle: referenceOracle, supabaseCompat: true };
const mutants = loadMutants(BUNDLED_MUTANTS).filter((m) => !m.unreachable && (!process.env.BENCH_ONLY || process.env.BENCH_ONLY.split(',').some((name) => m.name.includes(name))));
const server = await startDatabaseServer({});
const killPositions: number[] = [];
const losses: string[] = [];
let pairs = 0;
/** Mutants some property killed without early stop, and those some property still killed with it. */
const killedWithout = new Set<string>();
const killedWith = new Set<string>();
let kills = 0;
let stoppedEarly = 0;
let casesWithEarlyStop = 0;
let casesWithout = 0;
const started = Date.now();
try {
  for (const mutant of mutants) {
    const session = await openSession({ target, server, migrations: applyEdits(mutant, migrations), keptPrefix: unchangedPrefix(mutant, migrations), extra: extraSql(mutant), workers: WORKERS });
    try {
      const kept = (id: string) => !process.env.BENCH_PROPERTIES || process.env.BENCH_PROPERTIES.split(',').includes(id);
      const named = session.fit(dataProperties.filter((p) => kept(p.id) && (process.env.BENCH_ALL === '1' || mutant.rules.includes(p.id))), SEED).flatMap((f) => (f.runnable ? [f.property] : []));
      if (!named.length) continue;
      const options = { seed: SEED, runs: RUNS, stopAtFirst: true, shrink: false, lanes: { first: 0, total: WORKERS } } as const;
      const results = await runBreadthFirst({
        properties: named,
        tranches: tranchesOf(RUNS, MIN_CASES, true),
        deadline: Number.POSITIVE_INFINITY,
        earlyStopFrom: MIN_CASES,
        run: (property, tranche) => session.run(property, { ...options, ...tranche, deadline: undefined }),
        interrupted: () => false,
      });
      for (const property of named) {
        const r = results.get(property.id)!;
        pairs++;
        casesWithEarlyStop += r.cases;
        let without = r;
        if (r.stoppedEarly) {
          stoppedEarly++;
          const rest = await session.run(property, { ...options, tranche: RUNS, ...(r.progress ? { resume: r.progress } : {}) });
          without = { ...rest, cases: r.cases + rest.cases };
          if (rest.status === 'failed') losses.push(`${mutant.name} ${property.id}: killed at ${without.cases} cases without early stop, stopped early at ${r.cases} (${r.stoppedEarly.reason})`);
        }
        casesWithout += without.cases;
        if (r.status === 'failed') killedWith.add(mutant.name);
        if (without.status === 'failed') {
          killedWithout.add(mutant.name);
          kills++;
          killPositions.push(without.cases);
        }
        console.log(`${mutant.name} ${property.id}: ${r.status}${r.stoppedEarly ? ` stopped early at ${r.cases} (${coverage(r)})` : ''} / without early stop ${without.status} at ${without.cases} cases`);
      }
    } finally {
      await session.close();
    }
  }
} finally {
  await server.stop();
}
killPositions.sort((a, b) => a - b);
const at = (q: number) => killPositions[Math.min(killPositions.length - 1, Math.floor(q * killPositions.length))];
console.log(`\n${mutants.length} mutants, ${pairs} (mutant, named property) pairs, seed ${SEED}, ${RUNS} cases, minimum ${MIN_CASES}, ${WORKERS} lanes, ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`kills without early stop: ${kills}; lost with early stop: ${losses.length}; stopped early: ${stoppedEarly} pairs`);
console.log(`kill position (cases at the first failure): median ${at(0.5)}, p90 ${at(0.9)}, max ${killPositions[killPositions.length - 1]}; over ${MIN_CASES}: ${killPositions.filter((c) => c > MIN_CASES).length}; over 50: ${killPositions.filter((c) => c > 50).length}`);
console.log(`mutants killed: ${killedWithout.size} without early stop, ${killedWith.size} with it${killedWith.size < killedWithout.size ? ` (lost: ${[...killedWithout].filter((m) => !killedWith.has(m)).join(', ')})` : ''}`);
console.log(`cases: ${casesWithEarlyStop} with early stop, ${casesWithout} without`);
for (const l of losses) console.log(`LOST ${l}`);
