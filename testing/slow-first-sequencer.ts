/**
 * Starts the longest test files first. Without vitest's results cache (a clean CI checkout) vitest
 * orders files by size, and the 51-line mutants test (85 s) started among the last: the run then
 * waited on it with one worker idle (about 11 s of a 2-worker run, simulated from a CI log's file
 * times). The order changes when files start, never what they assert.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest first, from the last clean-clone CI's file times (2 cores, session 23's CI before its
 * changes: seconds of its tests summed after each, the 30 longest); a file missing from here keeps
 * vitest's own order after these.
 */
export const SLOWEST_TEST_FILES = [
  'cli/init-command.test.ts', // 69
  'cli/mutants-command.test.ts', // 61
  'examples/student-union/student-union.test.ts', // 53
  'cli/reliability.test.ts', // 45
  'cli/bad-input.test.ts', // 45
  'testing/real-app-fixtures.test.ts', // 40
  'testing/package.test.ts', // 38
  'cli/cache-command.test.ts', // 35
  'cli/budget.test.ts', // 30
  'sso/client/browser-driver.test.ts', // 28
  'examples/notes-app/notes-app.test.ts', // 27
  'cli/red-night.test.ts', // 24
  'cli/diff-examples.test.ts', // 23
  'testing/model-grants.test.ts', // 22
  'packs/reference/model/spec-compared.test.ts', // 22
  'packs/reference/mutants.test.ts', // 22
  'sso/properties/fault-variants.test.ts', // 21
  'examples/service-desk/service-desk.test.ts', // 21
  'cli/conventions.test.ts', // 21
  'testing/real-app-constraints.test.ts', // 19
  'engine/db/template-cache.test.ts', // 19
  'cli/diff.test.ts', // 18
  'cli/action.test.ts', // 18
  'testing/unexposed-schema.test.ts', // 17
  'engine/failures/failures.test.ts', // 17
  'engine/db/providers/local-server.test.ts', // 16
  'cli/workflow.test.ts', // 16
  'packs/reference/model/spec-choices.test.ts', // 15
  'engine/config/supabase-project.test.ts', // 15
  'cli/baseline.test.ts', // 15
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
