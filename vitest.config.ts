import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

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
    reporters: ['default', './testing/summary-reporter.ts'],
  },
});
