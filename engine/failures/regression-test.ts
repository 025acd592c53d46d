/**
 * A saved data-layer failure as a ready-to-paste vitest test that pins the case: it rebuilds the
 * target the failure was found on (its config: settings, migration folders, fixtures; or its
 * migrations folder; the bundled reference database for older records), replays the exact case
 * there and expects model and database to agree. Its
 * imports are written for the folder it is meant to be pasted into (default
 * `packs/reference/regressions/`, relative to the repository root).
 */
import path from 'node:path';
import { dataCaseOf, type FailureRecord } from './schema.ts';

export const REGRESSION_FOLDER = path.join('packs', 'reference', 'regressions');

function importFrom(folder: string, target: string): string {
  const rel = path.posix.relative(folder.split(path.sep).join('/'), target);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

export function regressionTest(record: FailureRecord, folder: string = REGRESSION_FOLDER): string {
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
