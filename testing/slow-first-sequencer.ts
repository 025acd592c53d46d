/**
 * Starts the longest test files first. Without vitest's results cache (a clean CI checkout) vitest
 * orders files by size, and the 51-line mutants test (85 s) started among the last: the run then
 * waited on it with one worker idle (about 11 s of a 2-worker run, simulated from a CI log's file
 * times). The order changes when files start, never what they assert.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest first, from the last clean-clone CI's file times (2 cores, session 19's last CI at
 * 57301c7: seconds after each); a file missing from here keeps vitest's own order after these.
 */
export const SLOWEST_TEST_FILES = [
  'cli/init-command.test.ts', // 88
  'cli/bad-input.test.ts', // 81
  'cli/mutants-command.test.ts', // 66
  'examples/notes-app/notes-app.test.ts', // 66
  'examples/student-union/student-union.test.ts', // 64
  'cli/reliability.test.ts', // 60
  'testing/package.test.ts', // 60
  'testing/real-app-fixtures.test.ts', // 53
  'cli/diff-examples.test.ts', // 51
  'testing/model-grants.test.ts', // 46
  'cli/action.test.ts', // 45
  'cli/cache-command.test.ts', // 42
  'packs/reference/model/spec-compared.test.ts', // 38
  'examples/service-desk/service-desk.test.ts', // 35
  'cli/conventions.test.ts', // 33
  'cli/budget.test.ts', // 32
  'sso/client/browser-driver.test.ts', // 32
  'testing/real-app-constraints.test.ts', // 32
  'cli/diff.test.ts', // 31
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
