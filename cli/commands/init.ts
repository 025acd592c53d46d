/**
 * The `init` command's definition: its options and help, for commander. The implementation
 * (cli/init-command.ts) loads when the command runs, so `--help`, `--version` and bad input answer without it.
 */
import type { Command } from 'commander';
import type { PackSource } from '../../engine/pack.ts';
import type { InitOptions } from '../init-command.ts';

import type { RunCommand as Run } from './run-command.ts';

export function registerInitCommand(program: Command, run: Run, pack: PackSource): void {
  program
    .command('init')
    .description('read an existing migrations folder and write a starting policyfuzz.config.json')
    .option('--migrations <dir...>', "the project migration folders, applied in order (default: the --pack's own migrations, else supabase/migrations when present)")
    .option('--skip <file...>', 'migration file names to leave out (data repairs that cannot apply to an empty database); written to the config')
    .option('--pack <module>', "a project pack module (.ts/.js exporting extendPack(…) or definePack(…) from 'policyfuzz'): init maps its model, and the config names it")
    .option('--out <file>', 'where to write the config', 'policyfuzz.config.json')
    .option('--force', 'overwrite an existing config')
    .option('--database-url <url>', 'use this Postgres server')
    .action((opts: Omit<InitOptions, 'packModule'> & { pack?: string }) =>
      run(async () => {
        const [{ init }, { loadPackModule }] = await Promise.all([import('../init-command.ts'), import('../../engine/config/pack-module.ts')]);
        return init({ ...opts, packModule: opts.pack, pack: opts.pack ? await loadPackModule(opts.pack, '--pack') : await pack.load() });
      }),
    );
}
