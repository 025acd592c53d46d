/**
 * `npm run bench`: throughput of the rule-2 property on 1 and 2 workers (generation, model,
 * fixtures, request, rollback all included) against the raw floor (the same SQL sent with no
 * generation and no model), their ratio, and the time from start to the first case.
 * Goals on a 2-core machine: ≥ 1,300 cases/s on 2 workers, ratio ≥ 0.75, first case < 2 s.
 */
import { referenceOracle } from '../packs/reference/model/index.ts';
import fc from 'fast-check';
import { loadMigrationFolder } from '../engine/db/migrations.ts';
import { startDatabaseServer } from '../engine/db/providers/index.ts';
import { BUNDLED_MIGRATIONS } from '../cli/paths.ts';
import { cliStartup } from './cli-startup.ts';
import { fixtureStatements } from '../engine/fixtures.ts';
import { requestBatch } from '../engine/executor/case-transaction.ts';
import { buildStatement } from '../engine/executor/statement.ts';
import { openEnvironment, type Environment } from '../engine/runner/environment.ts';
import { runDataProperty } from '../engine/runner/run-data-property.ts';
import { defaultSettings } from '../packs/reference/model/settings.ts';
import { fixtureOrder } from '../packs/reference/model/tables/index.ts';
import { R02 } from '../packs/reference/rules/R02-users-role/property.ts';

const CASES = Number(process.env.BENCH_CASES ?? 4000);
const SEED = 20261121;

async function harnessRate(env: Environment): Promise<number> {
  await runDataProperty(env, R02, { seed: SEED + 1, runs: 200, oracle: referenceOracle }); // warm-up
  const started = performance.now();
  const r = await runDataProperty(env, R02, { seed: SEED, runs: CASES, oracle: referenceOracle });
  if (r.status !== 'passed') throw new Error(`R02 did not pass during the benchmark: ${r.failure?.message ?? r.note}`);
  return r.cases / ((performance.now() - started) / 1000);
}

/**
 * The same cases as SQL text, prepared before the clock starts: the same round trips the harness
 * sends (fixtures with the previous case's rollback; then the request batch as requestBatch
 * builds it, with its read-only switch and end-of-request constraint check).
 */
function rawBatches(env: Environment): string[][] {
  const cases = fc.sample(R02.cases(defaultSettings), { numRuns: CASES, seed: SEED });
  return cases.map((c) => {
    const step = c.steps[0];
    const statement = buildStatement(step.request, env.cache);
    if ('refusal' in statement) throw new Error('unexpected refusal');
    return [
      ['rollback', 'begin', ...fixtureStatements(c.world, fixtureOrder).map((f) => f.sql)].join(';\n'),
      requestBatch(step.caller, step.request, statement, env.cache),
    ];
  });
}

async function rawRate(env: Environment, batches: string[][]): Promise<number> {
  const clients = env.workers.map((w) => w.client);
  const started = performance.now();
  await Promise.all(
    clients.map(async (client, w) => {
      for (let i = w; i < batches.length; i += clients.length) {
        for (const sql of batches[i]) await client.query(sql).catch(() => client.query('rollback to savepoint pf_request'));
      }
      await client.query('rollback');
    }),
  );
  return batches.length / ((performance.now() - started) / 1000);
}

async function main(): Promise<void> {
  for (const line of cliStartup()) console.log(line);
  const t0 = performance.now();
  const server = await startDatabaseServer({ provider: process.env.DATABASE_URL ? undefined : 'local' });
  const migrations = loadMigrationFolder(BUNDLED_MIGRATIONS);
  try {
    const firstEnv = await openEnvironment({ server, migrations, workers: 1 });
    const firstCaseMs = performance.now() - t0;
    console.log(`start to first case: ${firstCaseMs.toFixed(0)} ms (provider ${server.description}; goal < 2000 ms)`);
    await firstEnv.close();
    for (const workers of [1, 2]) {
      const env = await openEnvironment({ server, migrations, workers });
      try {
        const harness = await harnessRate(env);
        const raw = await rawRate(env, rawBatches(env));
        console.log(
          `${workers} worker(s): harness ${harness.toFixed(0)} cases/s, raw floor ${raw.toFixed(0)} cases/s, ratio ${(harness / raw).toFixed(2)}` +
            (workers === 2 ? ` (goals: ≥ 1300 cases/s, ratio ≥ 0.75)` : ''),
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
