import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', '.scratch/**'],
    globalSetup: ['testing/global-setup.ts'],
    setupFiles: ['testing/remove-temp-dirs.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default', './testing/summary-reporter.ts'],
  },
});
