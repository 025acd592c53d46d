/**
 * The `diff` command's definition: its options and help, for commander. The implementation
 * (cli/diff-command.ts) loads when the command runs, so `--help`, `--version` and bad input answer without it.
 */
import type { Command } from 'commander';
import type { PackSource } from '../../engine/pack.ts';
import type { DiffOptions } from '../diff-command.ts';
import { idList, positiveInt, seedValue } from '../options.ts';
import { defaultMigrationsOption } from '../paths.ts';

import type { RunCommand as Run } from './run-command.ts';

export function registerDiffCommand(program: Command, run: Run, pack: PackSource): void {
  program
    .command('diff')
    .description('behaviour diff of a migration change: the same cases against the base and the head, each change judged by the model (exit 1 on a regression)')
    .requiredOption('--base <git-ref|dir...>', "the migrations before the change: a git ref (its version of each head folder is used), or one folder for each of the head's folders, in the config's order")
    .option('--head <dir>', `the migrations after the change (default: the config's, else ${defaultMigrationsOption(pack)})`)
    .option('--config <file>', 'a project config (policyfuzz.config.json or .ts): its migration folders, model settings, rules and fixtures; default: the one in this folder, if any')
    .option('--seed <n>', 'seed for generation (default: a fresh one, printed)', seedValue)
    .option('--runs <n>', 'cases per rule (default 200)', positiveInt('--runs'))
    .option('--only <ids>', 'comma-separated rule ids, e.g. R02,R05', idList)
    .option('--changed-since <git-ref>', 'only the rules whose tables or functions the head migrations changed since this ref')
    .option('--database-url <url>', 'use this Postgres server (default: $DATABASE_URL, else testcontainers, else a local server)')
    .option('--markdown <file>', 'also write the report as Markdown (for a pull-request comment)')
    .option('--pack <module>', "a project pack module (as for fuzz): its properties and mapping; default: the config's \"pack\", if any")
    .action(({ pack: packModule, ...opts }: Omit<DiffOptions, 'packModule'> & { pack?: string }) => run(async () => (await import('../diff-command.ts')).diff({ ...opts, ...(packModule ? { packModule } : {}) }, pack)));
}
