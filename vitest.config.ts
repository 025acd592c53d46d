import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './testing/slow-first-sequencer.ts';

export default defineConfig({
  // Example packs import the public entry point by its package name: resolve it to this repo's source.
  resolve: {
    alias: [
      { find: /^policyfuzz$/, replacement: fileURLToPath(new URL('./api/index.ts', import.meta.url)) },
      { find: /^policyfuzz\/vitest$/, replacement: fileURLToPath(new URL('./api/vitest.ts', import.meta.url)) },
      { find: /^policyfuzz\/config$/, replacement: fileURLToPath(new URL('./api/config.ts', import.meta.url)) },
    ],
  },
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', '.scratch/**'],
    globalSetup: ['testing/global-setup.ts'],
    setupFiles: ['testing/remove-temp-dirs.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The tests wait on Postgres and child processes more than they compute: on a 2-core machine two
    // files at a time halve the wall time (vitest's default there is one).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker runs its files one after another in one process, loading the shared modules once:
    // a fresh process per file cost more than the tests of the 91 shortest files (their CPU time
    // 117 s → 64 s). No test depends on a fresh module state; the pool still runs files apart.
    isolate: false,
    sequence: { sequencer: SlowFirstSequencer },
    reporters: ['default', './testing/summary-reporter.ts'],
  },
});
