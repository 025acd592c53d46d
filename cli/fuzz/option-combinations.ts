/**
 * The fuzz options that need one another, judged from the options alone. The CLI checks them
 * before it loads the engine (a usage error answers in a fraction of the time a run's modules take
 * to load, and the test suite starts the binary hundreds of times); planRun checks them again for
 * a run started from code.
 */
import { UsageError } from '../../engine/errors.ts';
import type { FuzzOptions } from './fuzz-options.ts';

export function checkOptionCombinations(options: Pick<FuzzOptions, 'shard' | 'seed' | 'updateBaseline' | 'baseline'>): void {
  const shard = options.shard;
  // Shards that each drew their own seed would check other cases than one another, and their merge
  // would be no one machine's run: every shard takes the one seed given.
  if (shard && shard.count > 1 && options.seed === undefined) {
    throw new UsageError(`--shard ${shard.index}/${shard.count} needs --seed <n>, the same on every shard (e.g. --seed $GITHUB_RUN_NUMBER): with a seed of its own each shard would test other cases, and the merge would be no one run's`);
  }
  if (options.updateBaseline && !options.baseline) throw new UsageError('--update-baseline needs --baseline <file> (the file to write)');
}
