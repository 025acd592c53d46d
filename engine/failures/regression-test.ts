/**
 * A saved data-layer failure as a ready-to-paste vitest test that pins the case: it replays the
 * exact case on the bundled reference database and expects model and database to agree. Its
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
 * Paste as ${path.posix.join(folder.split(path.sep).join('/'), `${record.id}.test.ts`)}: it replays the exact case on the reference
 * database and fails while model and database disagree on it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { referenceOracle } from ${from('packs/reference/model/index.ts')};
import { checkCase } from ${from('engine/runner/check-case.ts')};
import type { DataCase } from ${from('engine/runner/data-case.ts')};
import type { Environment } from ${from('engine/runner/environment.ts')};
import { referenceEnvironment } from ${from('testing/reference.ts')};

const testCase: DataCase = ${JSON.stringify(testCase, null, 2)};

let env: Environment;
beforeAll(async () => {
  env = await referenceEnvironment();
});
afterAll(() => env?.close());

it(${JSON.stringify(title)}, async () => {
  const verdict = await checkCase(env.workers[0].tx, testCase, referenceOracle);
  expect(verdict.mismatch?.reason).toBeUndefined();
});
`;
}
