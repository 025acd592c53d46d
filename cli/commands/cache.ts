/**
 * The `cache clear` command's definition: its options and help, for commander. The implementation
 * (cli/cache-command.ts) loads when the command runs, so `--help`, `--version` and bad input answer without it.
 */
import type { Command } from 'commander';

import type { RunCommand as Run } from './run-command.ts';

export function registerCacheCommand(program: Command, run: Run): void {
  const cache = program.command('cache').description('what policyfuzz keeps between runs to start faster (built templates)');
  cache
    .command('clear')
    .description('remove the local cache, and the kept templates on --database-url if given')
    .option('--database-url <url>', 'also drop the kept template databases (policyfuzz_template_…) on this server')
    .action((opts: { databaseUrl?: string }) =>
      run(async () => (await import('../cache-command.ts')).clearCache(opts)),
    );
}
