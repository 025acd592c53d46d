/**
 * A saved data-layer failure as a ready-to-paste vitest test that pins the case: it rebuilds the
 * target the failure was found on (its config: settings, migration folders, fixtures; or its
 * migrations folder; the bundled reference database for older records), replays the exact case
 * there and expects model and database to agree. For the reference, its imports are written for
 * the folder it is meant to be pasted into (default `packs/reference/regressions/`, relative to
 * the repository root); for a project, it calls `policyfuzz/vitest`'s replaySavedFailure on the
 * saved failure beside it.
 */
import path from 'node:path';
import { dataCaseOf, type FailureRecord } from './schema.ts';

export const REGRESSION_FOLDER = path.join('packs', 'reference', 'regressions');

function importFrom(folder: string, target: string): string {
  const rel = path.posix.relative(folder.split(path.sep).join('/'), target);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** Found on a project (its config or pack), not on policyfuzz's own reference database. */
const foundOnProject = (record: FailureRecord) => Boolean(record.target?.config || record.target?.pack);

export function regressionTest(record: FailureRecord, folder: string = REGRESSION_FOLDER): string {
  if (foundOnProject(record)) return projectRegressionTest(record);
  const testCase = dataCaseOf(record);
  const from = (p: string) => JSON.stringify(importFrom(folder, p));
  const title = `${record.property} regression ${record.id}: ${record.message.split('\n')[0]}`;
  return `/**
 * policyfuzz regression for ${record.property} (${record.title}).
 * Found with seed ${record.seed}, path ${record.path}; policyfuzz ${record.policyfuzzVersion}; migrations digest ${record.migrationsDigest ?? '?'}.
 * Paste as ${path.posix.join(folder.split(path.sep).join('/'), `${record.id}.test.ts`)}: it replays the exact case on the target it was
 * found on (${record.target?.config ? `config ${record.target.config}` : record.target?.migrations ? `migrations ${record.target.migrations}` : 'the bundled reference database'}) and fails while model and database disagree on it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Oracle } from ${from('engine/pack.ts')};
import { checkCase } from ${from('engine/runner/check-case.ts')};
import type { DataCase } from ${from('engine/runner/data-case.ts')};
import type { Environment } from ${from('engine/runner/environment.ts')};
import { targetEnvironment } from ${from('testing/target.ts')};

const target = ${JSON.stringify(record.target ?? {})};
const testCase: DataCase = ${JSON.stringify(testCase, null, 2)};

let env: Environment;
let oracle: Oracle;
beforeAll(async () => {
  ({ env, oracle } = await targetEnvironment(target));
});
afterAll(() => env?.close());

it(${JSON.stringify(title)}, async () => {
  const verdict = await checkCase(env.workers[0].tx, testCase, oracle);
  expect(verdict.mismatch?.reason).toBeUndefined();
});
`;
}

/**
 * For a project: a test written against the public API (`policyfuzz/vitest`), to keep beside the
 * saved failure it replays; the reference's form imports policyfuzz's own sources.
 */
function projectRegressionTest(record: FailureRecord): string {
  const title = `${record.property} regression ${record.id}: ${record.message.split('\n')[0]}`;
  return `/**
 * policyfuzz regression for ${record.property} (${record.title}).
 * Found with seed ${record.seed}, path ${record.path}; policyfuzz ${record.policyfuzzVersion}; migrations digest ${record.migrationsDigest ?? '?'}.
 * Keep it beside ${record.id}.json (rename it ${record.id}.test.ts for your vitest suite): it replays that exact
 * case on the target it was found on (${record.target?.config ? `config ${record.target.config}` : `migrations ${JSON.stringify(record.target?.migrations)}`}) and fails while model and database disagree on it.
 */
import { fileURLToPath } from 'node:url';
import { it } from 'vitest';
import { replaySavedFailure } from 'policyfuzz/vitest';

it(${JSON.stringify(title)}, () => replaySavedFailure(fileURLToPath(new URL('./${record.id}.json', import.meta.url))), 300_000);
`;
}
