/**
 * `npm run bench`: throughput of the rule-2 property on 1 and 2 workers (generation, model,
 * fixtures, requests, rollback all included) against the raw floor (the very messages the harness
 * wrote, replayed in order with the same overlap and no generation and no model), their ratio, and
 * the time from start to the first case, and that time on a generated 160-migration project with
 * the template cache off, then kept (cached-start.ts); and an rpc-heavy user pack through the
 * binary (examples/student-union, user-pack.ts): cases/s on 1 and 2 workers, start to first case.
 * And the main job itself, `policyfuzz fuzz --seed 1` through the binary, wall time and CPU (pr-job.ts;
 * BENCH_ONLY=pr for it alone, BENCH_PR_AGAINST=<bin/policyfuzz.mjs> in alternating pairs against another checkout).
 * Each worker count gets a warm-up, then ROUNDS pairs (harness, then its floor); medians are printed,
 * with the harness's CPU per case split into the database's (its worker backends, read from /proc
 * when the server runs on this machine) and Node's: the figure that says which side to cut.
 * Goals on a 2-core machine (issue #27): ≥ 2,000 cases/s on 2 workers, ratio ≥ 0.9, first case < 2 s.
 */
import { referenceOracle } from '../packs/reference/model/index.ts';
import { loadMigrationFolder } from '../engine/db/migrations.ts';
import { startDatabaseServer } from '../engine/db/providers/index.ts';
import { BUNDLED_MIGRATIONS } from '../cli/paths.ts';
import { cliStartup } from './cli-startup.ts';
import { cachedStart, cachedStartThroughBinary } from './cached-start.ts';
import { userPack } from './user-pack.ts';
import { prJob } from './pr-job.ts';
import { sendBatch } from '../engine/executor/batch-query.ts';
import { recordTrips, type Trip } from './trips.ts';
import { processesCpuMs } from './cpu.ts';
import { openEnvironment, type Environment } from '../engine/runner/environment.ts';
import { runDataProperty } from '../engine/runner/run-data-property.ts';
import { R02 } from '../packs/reference/rules/R02-users-role/property.ts';

const CASES = Number(process.env.BENCH_CASES ?? 4000);
const SEED = 20261121;
/** Harness/floor pairs per worker count; the medians are reported (a shared 2-core machine drifts by ±10% between runs). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Cases run before measuring: V8 compiles the hot paths over the first few thousand (the first 4,000 cost ~40% more Node CPU). */
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 2000);

/**
 * The harness's rate, and every message each worker wrote while it ran (in order): the floor
 * replays exactly these. Recording is an array push per message, counted against the harness.
 */
async function harnessRate(env: Environment, seed: number, backends: number[]): Promise<{ rate: number; trips: Trip[][]; cpuPerCase: CpuPerCase }> {
  const trips = env.workers.map(() => [] as Trip[]);
  const restore = env.workers.map((w, i) => recordTrips(w.client, trips[i]));
  // The recording starts with no statement prepared (the warm-up's dropped), so the floor, replaying
  // it on the same connections, prepares and executes exactly what the harness did.
  for (const w of env.workers) await w.tx.deallocatePrepared();
  const databaseBefore = processesCpuMs(backends);
  const nodeBefore = process.cpuUsage();
  const started = performance.now();
  let r;
  try {
    r = await runDataProperty(env, R02, { seed, runs: CASES, oracle: referenceOracle });
  } finally {
    for (const undo of restore) undo();
  }
  const rate = r.cases / ((performance.now() - started) / 1000);
  const node = process.cpuUsage(nodeBefore);
  const databaseAfter = processesCpuMs(backends);
  if (r.status !== 'passed') throw new Error(`R02 did not pass during the benchmark: ${r.failure?.message ?? r.note}`);
  for (const w of env.workers) await w.tx.flush();
  const database = databaseBefore !== undefined && databaseAfter !== undefined ? (databaseAfter - databaseBefore) / r.cases : undefined;
  return { rate, trips, cpuPerCase: { database, node: (node.user + node.system) / 1000 / r.cases } };
}

/** CPU milliseconds per case: the worker backends' (undefined when the server is not on this machine) and Node's. */
interface CpuPerCase {
  database?: number;
  node: number;
}

/**
 * The floor: each worker writes the messages the harness wrote, the same text in the same order
 * on its own connection (so the database does the same work, errors included), each as soon as
 * no more of the earlier ones are unanswered than when the harness wrote it: the same round trips
 * and the same overlap, with nothing in between but the wait for answers.
 */
async function rawRate(env: Environment, trips: Trip[][], cases: number): Promise<number> {
  // The recording began with no statement prepared: so does the replay, or its PREPAREs would be
  // refused (already there) and the messages carrying them would end early, doing less work.
  for (const w of env.workers) await w.tx.deallocatePrepared();
  const started = performance.now();
  await Promise.all(
    env.workers.map(async (w, i) => {
      const unanswered: Promise<unknown>[] = [];
      for (const { text, inFlight } of trips[i]) {
        while (unanswered.length > inFlight) await unanswered.shift();
        unanswered.push(sendBatch(w.client, text));
      }
      await Promise.all(unanswered);
      await w.client.query('rollback');
    }),
  );
  return cases / ((performance.now() - started) / 1000);
}

/** Messages written behind unanswered ones (pipelined), as a share of all. */
function pipelinedShare(trips: Trip[][]): number {
  const all = trips.flat();
  return all.filter((t) => t.inFlight > 0).length / all.length;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** `BENCH_ONLY=workers`: only the rule-2 lines (start to first case, 1 and 2 workers), to compare a change to the executor in minutes, not a quarter hour. */
const WORKERS_ONLY = process.env.BENCH_ONLY === 'workers';
/** `BENCH_WORKERS=2`: the worker counts measured (default 1,2). */
const WORKER_COUNTS = (process.env.BENCH_WORKERS ?? '1,2').split(',').map(Number);

async function main(): Promise<void> {
  // `BENCH_ONLY=start`: only the start-up lines on the generated many-migration project.
  if (process.env.BENCH_ONLY === 'start') {
    for (const line of [...(await cachedStart()), ...cachedStartThroughBinary()]) console.log(line);
    return;
  }
  // `BENCH_ONLY=pr`: only the main job's lines (with BENCH_PR_AGAINST, alternating pairs against another checkout's binary).
  if (process.env.BENCH_ONLY === 'pr') {
    for (const line of prJob()) console.log(line);
    return;
  }
  if (!WORKERS_ONLY) {
    for (const line of cliStartup()) console.log(line);
    for (const line of await cachedStart()) console.log(line);
    for (const line of cachedStartThroughBinary()) console.log(line);
    for (const line of userPack()) console.log(line);
    for (const line of prJob()) console.log(line);
  }
  const t0 = performance.now();
  const server = await startDatabaseServer({ provider: process.env.DATABASE_URL ? undefined : 'local' });
  const migrations = loadMigrationFolder(BUNDLED_MIGRATIONS);
  try {
    const firstEnv = await openEnvironment({ server, migrations, workers: 1 });
    const firstCaseMs = performance.now() - t0;
    console.log(`start to first case: ${firstCaseMs.toFixed(0)} ms (provider ${server.description}; goal < 2000 ms)`);
    await firstEnv.close();
    for (const workers of WORKER_COUNTS) {
      const env = await openEnvironment({ server, migrations, workers });
      try {
        await runDataProperty(env, R02, { seed: SEED + 100, runs: WARM_UP, oracle: referenceOracle });
        const rounds: { harness: number; raw: number; perCase: number; pipelined: number; cpu: CpuPerCase }[] = [];
        // Each worker's backend, whose CPU is read around each round (after the warm-up's last case is rolled back).
        const backends: number[] = [];
        for (const w of env.workers) {
          await w.tx.flush();
          backends.push(Number((await w.client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid));
        }
        for (let round = 0; round < ROUNDS; round++) {
          const { rate: harness, trips, cpuPerCase } = await harnessRate(env, SEED + round, backends);
          const raw = await rawRate(env, trips, CASES);
          rounds.push({ harness, raw, perCase: trips.flat().length / CASES, pipelined: pipelinedShare(trips), cpu: cpuPerCase });
        }
        const each = rounds.map((r) => `${r.harness.toFixed(0)}/${r.raw.toFixed(0)}`).join(', ');
        const database = rounds.every((r) => r.cpu.database !== undefined) ? `database ${median(rounds.map((r) => r.cpu.database!)).toFixed(2)} ms + ` : '';
        console.log(
          `${workers} worker(s): harness ${median(rounds.map((r) => r.harness)).toFixed(0)} cases/s, raw floor ${median(rounds.map((r) => r.raw)).toFixed(0)} cases/s, ` +
            `ratio ${median(rounds.map((r) => r.harness / r.raw)).toFixed(2)}, ${median(rounds.map((r) => r.perCase)).toFixed(2)} messages per case, ${(100 * median(rounds.map((r) => r.pipelined))).toFixed(0)}% of them written behind unanswered ones, ` +
            `CPU per case ${database}Node ${median(rounds.map((r) => r.cpu.node)).toFixed(2)} ms ` +
            `(medians of ${ROUNDS} rounds of ${CASES} cases after ${WARM_UP} to warm up; harness/floor each round: ${each})` +
            (workers === 2 ? ` (goals: ≥ 2000 cases/s, ratio ≥ 0.9)` : ''),
        );
      } finally {
        await env.close();
      }
    }
  } finally {
    await server.stop();
  }
}

await main();
