/** `policyfuzz fuzz`: the data-layer properties against a migrations folder. */
import path from 'node:path';
import type { Command } from 'commander';
import { loadMigrationFolder } from '../db/migrations.ts';
import { openEnvironment } from '../runner/environment.ts';
import { runDataProperty } from '../runner/run-data-property.ts';
import { applyCoverageGate } from '../runner/coverage.ts';
import type { PropertyResult } from '../runner/result.ts';
import { failureDetails, progressBar, summaryTable } from '../report/console.ts';
import { UsageError } from '../errors.ts';
import { defaultSettings } from '../../model/settings.ts';
import { dataProperties } from '../../properties/index.ts';
import { freshSeed, idList, positiveInt, seedValue } from './options.ts';
import { BUNDLED_MIGRATIONS } from './paths.ts';

export interface FuzzOptions {
  seed?: number;
  runs: number;
  workers: number;
  databaseUrl?: string;
  migrations: string;
  only?: string[];
  path?: string;
  provider?: 'local' | 'testcontainers';
}

export async function fuzz(options: FuzzOptions, out: (line: string) => void = console.log): Promise<number> {
  const seed = options.seed ?? freshSeed();
  const properties = options.only ? dataProperties.filter((p) => options.only!.includes(p.id)) : dataProperties;
  if (options.only) {
    const unknown = options.only.filter((id) => id.startsWith('R') && !dataProperties.some((p) => p.id === id));
    if (unknown.length) throw new UsageError(`no data-layer property ${unknown.join(', ')} (known: ${dataProperties.map((p) => p.id).join(', ')})`);
  }
  if (options.path && properties.length !== 1) throw new UsageError('--path replays one case: name its property with --only');
  const migrations = loadMigrationFolder(options.migrations);
  out(`policyfuzz: seed ${seed}, ${options.runs} runs per property, ${options.workers} worker(s), migrations ${options.migrations}`);
  const env = await openEnvironment({ databaseUrl: options.databaseUrl, provider: options.provider, migrations, workers: options.workers, log: out });
  const results: PropertyResult[] = [];
  try {
    out(`ready in ${env.startupMs} ms`);
    const bar = progressBar(properties.length * (options.path ? 1 : options.runs));
    try {
      for (const property of properties) {
        const r = await runDataProperty(env, property, { seed, runs: options.runs, settings: defaultSettings, path: options.path, onCase: (id) => bar.tick(id) });
        results.push(options.path ? r : applyCoverageGate(r));
      }
    } finally {
      bar.stop();
    }
  } finally {
    await env.close();
  }
  out('');
  out(summaryTable(results));
  const details = failureDetails(results, (r) => `policyfuzz fuzz --migrations ${options.migrations} --only ${r.id} --seed ${r.failure!.seed} --path ${r.failure!.path}`);
  if (details) out(details);
  const failed = results.filter((r) => r.status === 'failed' || r.status === 'error');
  out(`\n${results.length - failed.length} passed, ${failed.length} failed (seed ${seed})`);
  return failed.length ? 1 : 0;
}

export function registerFuzzCommand(program: Command, run: (action: () => Promise<number>) => Promise<void>): void {
  program
    .command('fuzz', { isDefault: true })
    .description('run the data-layer properties (R01…R20) against a migrations folder on a scratch database')
    .option('--seed <n>', 'seed for generation (default: a fresh one, printed)', seedValue)
    .option('--runs <n>', 'cases per property', positiveInt('--runs'), 300)
    .option('--workers <n>', 'parallel database connections', positiveInt('--workers'), 2)
    .option('--database-url <url>', 'use this Postgres server (default: $DATABASE_URL, else testcontainers, else a local server)')
    .option('--migrations <dir>', 'folder of .sql migrations', path.relative(process.cwd(), BUNDLED_MIGRATIONS) || BUNDLED_MIGRATIONS)
    .option('--only <ids>', 'comma-separated property ids, e.g. R02,R05', idList)
    .option('--path <path>', 'with --seed and --only: replay the shrunk case a failure printed')
    .action((opts: FuzzOptions) => run(() => fuzz(opts)));
}
