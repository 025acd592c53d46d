/**
 * Saved failures end to end: a failure found on a broken database is saved once (stable name),
 * reads back, replays STILL FAILING on the broken database and FIXED on the fixed one, its psql
 * repro shows the model's expectation and the database's differing answer, and its regression
 * test runs as a vitest test in this repository.
 */
import { referenceOracle } from '../../packs/reference/model/index.ts';
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadMigrationFolder } from '../db/migrations.ts';
import { BUNDLED_MIGRATIONS, BUNDLED_MUTANTS, PROJECT_ROOT } from '../../cli/paths.ts';
import type { Environment } from '../runner/environment.ts';
import { runDataProperty } from '../runner/run-data-property.ts';
import { referenceEnvironment } from '../../testing/reference.ts';
import { UsageError } from '../errors.ts';
import { R02 } from '../../packs/reference/rules/R02-users-role/property.ts';
import { regressionTest } from './regression-test.ts';
import { replayDataFailure, verdictOf } from './replay.ts';
import { reproSql } from './repro-sql.ts';
import type { FailureRecord } from './schema.ts';
import { failureRecordOf, listFailures, loadFailure, saveFailure } from './store.ts';
import { tempDir } from '../../testing/temp-dir.ts';

const run = promisify(execFile);
const mutant = loadMigrationFolder(path.join(BUNDLED_MUTANTS, 'R02-users-role', 'mutants')).find((m) => m.name === 'R02-guard-trigger-dropped.sql')!;
const context = { policyfuzzVersion: 'test', migrationsDigest: 'd1', migrations: 'db/migrations' };

let broken: Environment;
let fixed: Environment;
let record: FailureRecord;
let dir: string;

beforeAll(async () => {
  [broken, fixed] = await Promise.all([referenceEnvironment({ extra: [mutant] }), referenceEnvironment()]);
  const result = await runDataProperty(broken, R02, { seed: 3, runs: 300, oracle: referenceOracle });
  expect(result.status).toBe('failed');
  record = failureRecordOf(result, { ...context, migrationsDigest: broken.template.digest })!;
  dir = tempDir('failures');
});
afterAll(async () => {
  await Promise.all([broken?.close(), fixed?.close()]);
});

describe('saved failures', () => {
  it('are one file per distinct failure, named by property and case, and read back', () => {
    expect(record.id).toMatch(/^R02-[0-9a-f]{12}$/);
    expect(record.step).toBe(0);
    const first = saveFailure(dir, record, { sql: reproSql(record, broken.cache, referenceOracle), regression: regressionTest(record) });
    saveFailure(dir, { ...record, foundAt: new Date(0).toISOString() });
    expect(readdirSync(dir).filter((f) => f.endsWith('.json'))).toEqual([`${record.id}.json`]);
    const back = loadFailure(first.json);
    expect(back.case).toEqual(record.case);
    expect(back.property).toBe('R02');
    expect(listFailures(dir).failures.map((f) => f.record.id)).toEqual([record.id]);
  });

  it("the psql repro echoes the run's recorded predictions, not new ones (a record without them is predicted again)", () => {
    expect(record.predictions).toHaveLength(record.step! + 1);
    // A recorded prediction that the model would not make today: the repro shows the recorded one.
    const recorded = { kind: 'raised', code: 'P0009', message: 'as recorded by the run' };
    const repro = reproSql({ ...record, predictions: [recorded] }, broken.cache, referenceOracle);
    expect(repro).toContain('model expects:     raised: SQLSTATE P0009 as recorded by the run');
    const predicted = reproSql({ ...record, predictions: undefined }, broken.cache, referenceOracle);
    expect(predicted).not.toContain('P0009');
    expect(predicted).toContain('model expects:');
  });

  it('replay STILL FAILING on the broken database and FIXED once the bug is removed', async () => {
    const still = await replayDataFailure(broken.workers[0], record, referenceOracle);
    expect(still.verdict).toBe('STILL FAILING');
    expect(still.replays).toHaveLength(3);
    const now = await replayDataFailure(fixed.workers[0], record, referenceOracle);
    expect(now.verdict).toBe('FIXED');
    expect(verdictOf([undefined, 'x', undefined])).toBe('FLAKY');
  });

  it('a malformed or foreign file is refused with what is wrong', () => {
    const write = (name: string, text: string) => {
      const f = path.join(dir, name);
      writeFileSync(f, text);
      return f;
    };
    expect(() => loadFailure(write('x.json', '{"format":'))).toThrow(/invalid JSON/);
    expect(() => loadFailure(write('pkg.json', '{"name":"left-pad"}'))).toThrow(/is not a policyfuzz failure file/);
    expect(() => loadFailure(write('v.json', JSON.stringify({ ...record, formatVersion: 9 })))).toThrow(/format version 9 is not supported/);
    const badCase = { ...record, case: { world: {}, steps: [{ caller: { kind: 'root' }, request: {} }] } };
    expect(() => loadFailure(write('c.json', JSON.stringify(badCase)))).toThrow(UsageError);
    expect(() => loadFailure(write('c.json', JSON.stringify(badCase)))).toThrow(/malformed .*case\.steps\.0\.caller/);
    expect(() => loadFailure(write('s.json', JSON.stringify({ ...record, seed: 'abc' })))).toThrow(/seed/);
    expect(listFailures(dir).unreadable.length).toBeGreaterThan(0);
  });

  it('the .sql repro, run with psql, shows the model expecting the guard and the database letting the change through', async () => {
    const file = path.join(dir, `${record.id}.sql`);
    const psql = (url: string) => run('/usr/bin/psql', [url, '-X', '-v', 'ON_ERROR_STOP=0', '-f', file], { env: { ...process.env, PGOPTIONS: '' } });
    const onBroken = await psql(broken.template.url);
    const out = onBroken.stdout;
    expect(out).toMatch(/model expects: +raised: SQLSTATE P0001/);
    // The database's own answer: the PATCH went through (one row touched, role changed).
    expect(out).toMatch(/^page_total \| 1$/m);
    expect(out).toMatch(/^body +\| \[\{.*"role":"user"/m);
    expect(onBroken.stderr).not.toMatch(/ERROR/);
    // The reference reads no session_user: its requests keep the connection's login (no per-request switch to pay for).
    expect(readFileSync(file, 'utf8')).not.toContain('session_authorization');

    // On the fixed database the same script shows the guard raising, as the model expects.
    const onFixed = await psql(fixed.template.url);
    expect(onFixed.stderr).toMatch(/ERROR: +P0001/);
    expect(onFixed.stdout).not.toMatch(/^page_total/m);
  });

  /** A record's regression test in a scratch folder of this repository (its own: the test's imports are relative to it). */
  function scratchFolder(pinned: FailureRecord): string {
    return path.join(PROJECT_ROOT, '.scratch', `pf-regression-${process.pid}-${pinned.target ? 'pinned' : 'reference'}`);
  }

  /**
   * Writes the regression tests of these records into their scratch folders and runs them in one
   * vitest, as a project runs its suite: one start of vitest and of its transform instead of one a
   * record; each test's verdict is read from the lines naming its own file. This repository's
   * timeouts: under load the pinned copy's build outlasted vitest's default 10 s hook, and its test
   * was skipped, not failed.
   */
  async function runRegressions(records: FailureRecord[]): Promise<{ texts: string[]; verdictOf: (pinned: FailureRecord) => string | undefined }> {
    const folders = records.map(scratchFolder);
    try {
      const texts = records.map((r, i) => {
        mkdirSync(folders[i], { recursive: true });
        const text = regressionTest(r, path.relative(PROJECT_ROOT, folders[i]));
        writeFileSync(path.join(folders[i], `${r.id}.test.ts`), text);
        return text;
      });
      const config = path.join(folders[0], 'vitest.config.ts');
      const include = folders.map((f) => `${path.relative(PROJECT_ROOT, f)}/*.test.ts`);
      writeFileSync(
        config,
        `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { root: ${JSON.stringify(PROJECT_ROOT)}, include: ${JSON.stringify(include)}, globalSetup: ['testing/global-setup.ts'], pool: 'forks', testTimeout: 120_000, hookTimeout: 120_000 } });\n`,
      );
      const { stdout } = await run(path.join(PROJECT_ROOT, 'node_modules', '.bin', 'vitest'), ['run', '--config', config], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, DATABASE_URL: inject('databaseUrl'), CI: '1', NO_COLOR: '1' },
      }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
      // A file's line in vitest's summary: "✓ <file> (1 test)" passed, "❯ <file> (1 test | 1 failed)" failed.
      const verdictOf = (pinned: FailureRecord) => {
        const file = `${path.relative(PROJECT_ROOT, scratchFolder(pinned))}/${pinned.id}.test.ts`;
        const line = stdout.split('\n').find((l) => l.includes(`${file} (`));
        return line && (/\| 1 failed\)/.test(line) ? 'failed' : /^\s*✓ /.test(line) ? 'passed' : line);
      };
      return { texts, verdictOf };
    } finally {
      for (const f of folders) rmSync(f, { recursive: true, force: true });
    }
  }

  /** The reference's record and the same failure pinned to a broken copy of its migrations: both regression tests, one vitest. */
  let regressions: Promise<{ reference: FailureRecord; pinned: FailureRecord; texts: string[]; verdictOf: (pinned: FailureRecord) => string | undefined }> | undefined;
  function bothRegressions() {
    regressions ??= (async () => {
      const copy = tempDir('broken-copy');
      for (const f of readdirSync(BUNDLED_MIGRATIONS)) writeFileSync(path.join(copy, f), readFileSync(path.join(BUNDLED_MIGRATIONS, f)));
      writeFileSync(path.join(copy, '9999_mutant.sql'), mutant.sql);
      const pinned: FailureRecord = { ...record, target: { config: null, migrations: copy } };
      return { reference: record, pinned, ...(await runRegressions([record, pinned])) };
    })();
    return regressions;
  }

  it('the regression test is a vitest test that runs in this repository and passes once fixed', async () => {
    const folder = path.relative(PROJECT_ROOT, scratchFolder(record));
    expect(regressionTest(record, folder)).toBe(regressionTest(loadFailure(path.join(dir, `${record.id}.json`)), folder));
    const { reference, texts, verdictOf } = await bothRegressions();
    expect(verdictOf(reference)).toBe('passed');
    expect(texts[0]).toContain('"../../engine/runner/check-case.ts"');
  }, 240_000); // both records' vitest run: twice one's

  it('the regression test of a failure found on a copy rebuilds that copy: it keeps failing while the bug is there', async () => {
    const { pinned, texts, verdictOf } = await bothRegressions();
    expect(texts[1]).toContain(JSON.stringify(pinned.target!.migrations));
    expect(verdictOf(pinned)).toBe('failed');
  }, 240_000);
});
