/** `policyfuzz init`: read an existing migrations folder and write a starting config. */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { startDatabaseServer } from '../engine/db/providers/index.ts';
import { inspectMigrations } from '../engine/config/init.ts';
import { UsageError } from '../engine/errors.ts';
import type { Pack, PackSource } from '../engine/pack.ts';

export interface InitOptions {
  migrations: string;
  out: string;
  force?: boolean;
  databaseUrl?: string;
}

export async function init(options: InitOptions & { pack: Pack }, out: (line: string) => void = console.log): Promise<number> {
  if (existsSync(options.out) && !options.force) throw new UsageError(`${options.out} exists; pass --force to overwrite it`);
  const server = await startDatabaseServer({ databaseUrl: options.databaseUrl });
  try {
    const report = await inspectMigrations(server, options.migrations, options.pack.properties, path.dirname(path.resolve(options.out)), options.pack.model, options.pack.vocabularies);
    writeFileSync(options.out, `${JSON.stringify(report.config, null, 2)}\n`);
    out(`wrote ${options.out}`);
    for (const note of report.config.notes as string[]) out(`  ${note}`);
    out(`  rules that apply: ${report.applicable.join(', ') || 'none'}`);
    return 0;
  } finally {
    await server.stop();
  }
}

export function registerInitCommand(program: Command, run: (action: () => Promise<number>) => Promise<void>, pack: PackSource): void {
  program
    .command('init')
    .description('read an existing migrations folder and write a starting policyfuzz.config.json')
    .requiredOption('--migrations <dir>', 'the project migrations folder, e.g. supabase/migrations')
    .option('--out <file>', 'where to write the config', 'policyfuzz.config.json')
    .option('--force', 'overwrite an existing config')
    .option('--database-url <url>', 'use this Postgres server')
    .action((opts: InitOptions) => run(async () => init({ ...opts, pack: await pack.load() })));
}
