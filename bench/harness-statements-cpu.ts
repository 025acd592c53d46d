/**
 * Issue 27: what the harness's own statements cost the database, as CPU, not counted. A reference
 * property (BENCH_PROPERTY, default R02) runs BENCH_CASES cases on one worker while every message is
 * recorded; the messages are then replayed on the same connection, as sent and rewritten, in
 * alternating rounds, reading the worker backend's CPU (/proc) around each replay:
 * - as sent;
 * - without the request boundaries the harness adds to run a case's requests in one transaction
 *   (savepoint, rollback to it, release, reset role, reset all): what cutting all of them could save
 *   at most (a request refused without its savepoint aborts the rest of its case, so that replay
 *   does less work than the harness could: its refused messages are counted);
 * - without reset role and reset all alone (the settings of a kept write reach the next request:
 *   what a narrower reset could save at most);
 * - the cases' opening statements alone (rollback, begin, the fixture inserts): the world's cost.
 * Needs the server on this machine (a local server is started unless DATABASE_URL is set).
 *
 *   BENCH_PROPERTY=R01 BENCH_CASES=1500 npx tsx bench/harness-statements-cpu.ts
 */
import { loadMigrationFolder } from '../engine/db/migrations.ts';
import { startDatabaseServer } from '../engine/db/providers/index.ts';
import { BUNDLED_MIGRATIONS } from '../cli/paths.ts';
import { sendBatch } from '../engine/executor/batch-query.ts';
import { openEnvironment, type Environment } from '../engine/runner/environment.ts';
import { runDataProperty } from '../engine/runner/run-data-property.ts';
import { referenceOracle } from '../packs/reference/model/index.ts';
import { dataProperties } from '../packs/reference/properties.ts';
import { processesCpuMs } from './cpu.ts';
import { recordTrips, type Trip } from './trips.ts';

const PROPERTY_ID = process.env.BENCH_PROPERTY ?? 'R02';
const CASES = Number(process.env.BENCH_CASES ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SEED = 20261128;

/** The statements case-transaction.ts adds between a case's requests (each a whole statement of a message). */
const REQUEST_BOUNDARY = /(^|; )(savepoint pf_request|rollback to savepoint pf_request|release savepoint pf_request|reset role|reset all|reset session authorization)(?=;|$)/g;
/** Where a request's part of a message begins, after the case's opening statements (joined by ';\n'). */
const REQUEST_START = /;\n(savepoint pf_request; |(prepare pf_\d+ as )?select 1 as pf_settings)/;

const withoutBoundaries = (text: string): string => text.replace(REQUEST_BOUNDARY, '').replace(/^; /, '');
/** A message's case-opening part (undefined: a message of requests only). */
function openingOnly(text: string): string | undefined {
  if (!/(^|\n)begin(;|$)/m.test(text)) return /^(rollback|vacuum [^;]*|deallocate all)$/.test(text) ? text : undefined;
  const cut = REQUEST_START.exec(text);
  return cut ? text.slice(0, cut.index) : text;
}

const VARIANTS: Record<string, (text: string) => string | undefined> = {
  'as sent': (text) => text,
  'without request boundaries': withoutBoundaries,
  'without reset role and reset all (a kept write\'s settings reach the next request)': (text) => text.replace(/; reset role; reset all(?=;|$)/g, ''),
  'case openings alone (rollback, begin, fixtures)': openingOnly,
};

/** Replays `texts` one after another; the backend's CPU (ms) and how many messages the database refused. */
async function replay(env: Environment, backend: number, texts: string[]): Promise<{ cpuMs: number; refused: number }> {
  const { client, tx } = env.workers[0];
  await tx.deallocatePrepared();
  const before = processesCpuMs([backend]);
  let refused = 0;
  for (const text of texts) {
    const { error } = await sendBatch(client, text);
    if (error && !refused++ && process.env.BENCH_DEBUG) console.log(error.message, JSON.stringify(text.slice(-300)));
  }
  await client.query('rollback');
  const after = processesCpuMs([backend]);
  if (before === undefined || after === undefined) throw new Error('the worker backend\'s CPU cannot be read: run this against a server on this machine');
  return { cpuMs: after - before, refused };
}

async function main(): Promise<void> {
  const property = dataProperties.find((p) => p.id === PROPERTY_ID);
  if (!property) throw new Error(`BENCH_PROPERTY=${PROPERTY_ID}: no such reference property (R01..R20)`);
  const server = await startDatabaseServer({ provider: process.env.DATABASE_URL ? undefined : 'local' });
  try {
    const env = await openEnvironment({ server, migrations: loadMigrationFolder(BUNDLED_MIGRATIONS), workers: 1 });
    try {
      const { client, tx } = env.workers[0];
      await tx.deallocatePrepared();
      const backend = Number((await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid);
      const trips: Trip[] = [];
      const undo = recordTrips(client, trips);
      let cases: number;
      try {
        cases = (await runDataProperty(env, property, { seed: SEED, runs: CASES, oracle: referenceOracle })).cases;
      } finally {
        undo();
      }
      await tx.flush();
      const texts = trips.map((t) => t.text);
      const results = new Map<string, { cpuMs: number; refused: number }[]>();
      for (let round = 0; round < ROUNDS; round++) {
        for (const [name, rewrite] of Object.entries(VARIANTS)) {
          const rewritten = texts.map(rewrite).filter((t): t is string => t !== undefined && t !== '');
          const r = await replay(env, backend, rewritten);
          results.set(name, [...(results.get(name) ?? []), r]);
        }
      }
      console.log(`${PROPERTY_ID}, ${cases} cases, ${texts.length} messages, replayed one after another on one connection (${ROUNDS} alternating rounds; database CPU per case, median, then each round):`);
      for (const [name, rs] of results) {
        const perCase = rs.map((r) => r.cpuMs / cases);
        const median = [...perCase].sort((a, b) => a - b)[perCase.length >> 1];
        console.log(`  ${median.toFixed(3)} ms  ${name} (${perCase.map((x) => x.toFixed(3)).join(', ')}; ${rs[0].refused} messages refused)`);
      }
    } finally {
      await env.close();
    }
  } finally {
    await server.stop();
  }
}

await main();
