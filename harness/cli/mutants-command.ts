/** `policyfuzz mutants`: every broken variant must be killed by the properties that name it. */
import path from 'node:path';
import type { Command } from 'commander';
import { loadMigrationFolder } from '../db/migrations.ts';
import { startDatabaseServer } from '../db/providers/index.ts';
import { killMutant, type KillResult } from '../mutants/kill.ts';
import { loadMutants } from '../mutants/mutant-files.ts';
import { defaultSettings } from '../../model/settings.ts';
import { catalogProperties, dataProperties } from '../../properties/index.ts';
import { positiveInt, seedValue } from './options.ts';
import { BUNDLED_MIGRATIONS, BUNDLED_MUTANTS } from './paths.ts';

export interface MutantsOptions {
  dir: string;
  migrations: string;
  seed: number;
  runs: number;
  all?: boolean;
  databaseUrl?: string;
}

export function killMatrix(results: KillResult[]): string {
  const ids = [...new Set(results.flatMap((r) => Object.keys(r.verdicts)))].sort();
  const nameWidth = Math.max(6, ...results.map((r) => r.mutant.length));
  const mark = { killed: 'X', survived: '.', error: '!' } as const;
  const lines = [`${'mutant'.padEnd(nameWidth)}  ${ids.join(' ')}  time-to-kill`];
  for (const r of results) {
    const cells = ids.map((id) => (r.verdicts[id] ? mark[r.verdicts[id]] : ' ').padEnd(id.length));
    lines.push(`${r.mutant.padEnd(nameWidth)}  ${cells.join(' ')}  ${r.timeToKillMs === undefined ? 'SURVIVED' : `${r.timeToKillMs} ms`}`);
  }
  return lines.join('\n');
}

export async function mutants(options: MutantsOptions, out: (line: string) => void = console.log): Promise<number> {
  const list = loadMutants(options.dir);
  const migrations = loadMigrationFolder(options.migrations);
  const server = await startDatabaseServer({ databaseUrl: options.databaseUrl });
  const results: KillResult[] = [];
  try {
    for (const mutant of list) {
      const r = await killMutant(mutant, { server, migrations, properties: dataProperties, catalogProperties, settings: defaultSettings, seed: options.seed, runs: options.runs, all: options.all });
      results.push(r);
      out(`${r.killedBy.length ? 'killed  ' : 'SURVIVED'} ${r.mutant}${r.killedBy.length ? ` by ${r.killedBy.join(', ')} in ${r.timeToKillMs} ms` : ''}${r.notes.length ? ` (${r.notes.join('; ')})` : ''}`);
    }
  } finally {
    await server.stop();
  }
  out('\nkill matrix (X killed, . survived, ! error):');
  out(killMatrix(results));
  const survivors = results.filter((r) => r.killedBy.length === 0);
  out(`\n${results.length - survivors.length} of ${results.length} mutants killed${survivors.length ? `; survivors: ${survivors.map((s) => `${s.mutant} (${s.bug})`).join('; ')}` : ''}`);
  return survivors.length ? 1 : 0;
}

export function registerMutantsCommand(program: Command, run: (action: () => Promise<number>) => Promise<void>): void {
  program
    .command('mutants')
    .description('run the properties against every broken policy variant and print the kill matrix')
    .option('--dir <dir>', 'folder of mutant .sql files', path.relative(process.cwd(), BUNDLED_MUTANTS) || BUNDLED_MUTANTS)
    .option('--migrations <dir>', 'folder of .sql migrations the mutants apply on', path.relative(process.cwd(), BUNDLED_MIGRATIONS) || BUNDLED_MIGRATIONS)
    .option('--seed <n>', 'seed', seedValue, 1)
    .option('--runs <n>', 'cases per property and mutant', positiveInt('--runs'), 300)
    .option('--all', 'run every property on every mutant (full matrix), not only the ones it names')
    .option('--database-url <url>', 'use this Postgres server')
    .action((opts: MutantsOptions) => run(() => mutants(opts)));
}
