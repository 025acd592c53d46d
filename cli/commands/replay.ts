/**
 * The `replay` command's definition: its options and help, for commander. The implementation
 * (cli/replay-command.ts) loads when the command runs, so `--help`, `--version` and bad input answer without it.
 */
import type { Command } from 'commander';
import type { PackSource } from '../../engine/pack.ts';
import { CLEAN_REPLAYS_FOR_FIXED } from '../../engine/failures/clean-replays.ts';
import type { ReplayOptions } from '../replay-command.ts';
import { migrationTimeoutValue, positiveInt } from '../options.ts';

import type { RunCommand as Run } from './run-command.ts';

export function registerReplayCommand(program: Command, run: Run, pack: PackSource): void {
  program
    .command('replay <file>')
    .description(`re-run one saved failure (.policyfuzz/failures/*.json): FIXED after ${CLEAN_REPLAYS_FOR_FIXED} clean replays (exit 0), STILL FAILING or FLAKY (exit 1)`)
    .option('--migrations <dir...>', 'folders of .sql migrations, applied in order (default: the ones the failure was found on, else the bundled one)')
    .option('--skip <file...>', 'migration file names to leave out (default: the ones the failure was found without)')
    .option('--migration-timeout <seconds>', 'longest one migration statement may run (default 300; config "migrationTimeout")', migrationTimeoutValue)
    .option('--config <file>', 'a project config (default: the one the failure was found with)')
    .option('--pack <module>', "a project pack module (.ts/.js exporting extendPack(…) or definePack(…) from 'policyfuzz'; default: the one the failure was found with)")
    .option('--database-url <url>', 'use this Postgres server')
    .option('--times <n>', 'replays (all must be clean for FIXED)', positiveInt('--times'), CLEAN_REPLAYS_FOR_FIXED)
    .option('--sso-config <file>', 'emulator config for an SSO failure')
    .action((file: string, opts: ReplayOptions & { pack?: string }) => run(async () => (await import('../replay-command.ts')).replay(file, { ...opts, packModule: opts.pack, pack })));
}
