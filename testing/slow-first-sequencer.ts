/**
 * Starts the longest test files first. Without vitest's results cache (a clean CI checkout) vitest
 * orders files by size, and the 51-line mutants test (85 s) started among the last: the run then
 * waited on it with one worker idle (about 11 s of a 2-worker run, simulated from a CI log's file
 * times). The order changes when files start, never what they assert.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest first, from the last clean-clone CI's file times (2 cores, session 22's CI before its
 * changes: seconds of its tests summed after each); a file missing from here keeps vitest's own
 * order after these.
 */
export const SLOWEST_TEST_FILES = [
  'cli/init-command.test.ts', // 66
  'cli/mutants-command.test.ts', // 64
  'examples/student-union/student-union.test.ts', // 56
  'cli/reliability.test.ts', // 48
  'cli/bad-input.test.ts', // 43
  'cli/budget.test.ts', // 43
  'testing/package.test.ts', // 41
  'testing/real-app-fixtures.test.ts', // 34
  'sso/client/browser-driver.test.ts', // 33
  'cli/cache-command.test.ts', // 30
  'examples/notes-app/notes-app.test.ts', // 30
  'packs/reference/mutants.test.ts', // 24
  'examples/service-desk/service-desk.test.ts', // 24
  'packs/reference/model/spec-compared.test.ts', // 21
  'testing/unexposed-schema.test.ts', // 20
  'testing/model-grants.test.ts', // 19
  'testing/real-app-constraints.test.ts', // 19
  'cli/diff-examples.test.ts', // 19
  'cli/conventions.test.ts', // 18
  'cli/diff.test.ts', // 18
  'cli/red-night.test.ts', // 18
  'cli/action.test.ts', // 17
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOWEST_TEST_FILES.indexOf(path.relative(f.project.config.root, f.moduleId).split(path.sep).join('/'));
      return i < 0 ? SLOWEST_TEST_FILES.length : i;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
