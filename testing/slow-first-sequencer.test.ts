import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { PROJECT_ROOT } from '../cli/paths.ts';
import { SLOWEST_TEST_FILES } from './slow-first-sequencer.ts';

// A misspelt or moved entry is never matched: that file would silently start in vitest's own order again.
it('every file the slow-first sequencer names exists, once', () => {
  expect(SLOWEST_TEST_FILES.filter((f) => !existsSync(path.join(PROJECT_ROOT, f)))).toEqual([]);
  expect(new Set(SLOWEST_TEST_FILES).size).toBe(SLOWEST_TEST_FILES.length);
});
