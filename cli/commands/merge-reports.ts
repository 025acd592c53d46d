/**
 * The `merge-reports` command's definition: its options and help, for commander. The implementation
 * (cli/merge-reports-command.ts) loads when the command runs, so `--help`, `--version` and bad input answer without it.
 */
import type { Command } from 'commander';
import { DEFAULT_REPORT_DIR, DEFAULT_REPORT_FORMATS, REPORT_FORMATS } from '../../engine/report/formats.ts';
import type { MergeOptions } from '../merge-reports-command.ts';
import { reportFormats } from '../options.ts';

import type { RunCommand as Run } from './run-command.ts';

export function registerMergeReportsCommand(program: Command, run: Run): void {
  program
    .command('merge-reports <inputs...>')
    .description('combine the summary.json of several shards into one summary.json, junit.xml and report.html')
    .option('--out <dir>', 'folder for the merged reports', DEFAULT_REPORT_DIR)
    .option('--report <formats>', `reports to write: ${REPORT_FORMATS.join(',')} (default ${DEFAULT_REPORT_FORMATS.join(',')})`, reportFormats)
    .option('--allow-partial', 'merge even when some shards are missing (otherwise exit 2)')
    .action((inputs: string[], opts: MergeOptions) => run(async () => (await import('../merge-reports-command.ts')).mergeReports(inputs, opts)));
}
