/**
 * The `mutants` command's definition: its options and help, for commander. The implementation
 * (cli/mutants-command.ts) loads when the command runs, so `--help`, `--version` and bad input answer without it.
 */
import type { Command } from 'commander';
import type { PackSource } from '../../engine/pack.ts';
import { AUTO_MUTATION_KINDS } from '../../engine/mutants/auto/derive.ts';
import type { MutantsOptions } from '../mutants-command.ts';
import { positiveInt, seedValue } from '../options.ts';
import { defaultMigrationsOption, shownPath } from '../paths.ts';

import type { RunCommand as Run } from './run-command.ts';

export function registerMutantsCommand(program: Command, run: Run, pack: PackSource): void {
  program
    .command('mutants')
    .description('run the properties against every broken policy variant and print the kill matrix')
    .option('--dir <dir>', `folder of mutant .sql files (default: the pack's own, ${shownPath(pack.mutants ?? 'mutants')} for the reference)`)
    .option('--migrations <dir...>', `folders of .sql migrations the mutants apply on (default: ${defaultMigrationsOption(pack)}; with --auto, the target fuzz would pick)`)
    .option('--seed <n>', 'seed', seedValue, 1)
    .option('--runs <n>', 'cases per property and mutant', positiveInt('--runs'), 300)
    .option('--all', 'run every property on every mutant (full matrix), not only the ones it names')
    .option('--auto', "derive broken variants from the target's own catalog (policies, grants, guards, views)")
    .option('--config <file>', 'with --auto: a project config (policyfuzz.config.json or .ts); default: the one in this folder, if any')
    .option('--pack <module>', "a project pack module (as for fuzz): its properties, and by default its mutants and migrations")
    .option('--skip <file...>', 'with --auto: migration file names to leave out')
    .option('--reference', 'with --auto: the bundled reference database, whatever this folder holds')
    .option('--kind <kind...>', `with --auto: only these kinds of variant (${AUTO_MUTATION_KINDS.join(', ')})`)
    .option('--run-uncovered', 'with --auto: also run the variants no property covers (listed as not covered, unrun, by default)')
    .option('--fail-on-uncovered', 'with --auto: exit 1 when a variant no property covers is left unrun (by default they are listed, exit 0)')
    .option('--json', 'print the result as JSON to stdout: each variant with its verdict, the counts, the exit code (everything else goes to stderr)')
    .option('--database-url <url>', 'use this Postgres server')
    .action((opts: Omit<MutantsOptions, 'packModule'> & { pack?: string; json?: boolean }) =>
      run(async () => (await import('../mutants-command.ts')).mutantsCommand(opts, pack)),
    );
}
