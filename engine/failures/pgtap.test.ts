/**
 * A saved failure's pgTAP test under real pgTAP (Debian's, loaded from its SQL file) against
 * real Postgres: it fails on the broken database (the R02 guard trigger dropped) and passes
 * once the bug is gone. Outside CI a machine without pgTAP skips it, saying how to install it;
 * in CI (CI=true, or POLICYFUZZ_REQUIRE_PGTAP=1 as .ci/run sets) pgTAP must be there (.ci/run installs it).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { referenceOracle } from '../../packs/reference/model/index.ts';
import { R02 } from '../../packs/reference/rules/R02-users-role/property.ts';
import { BUNDLED_MUTANTS } from '../../cli/paths.ts';
import { referenceEnvironment } from '../../testing/reference.ts';
import { tempDir } from '../../testing/temp-dir.ts';
import { loadMigrationFolder } from '../db/migrations.ts';
import type { Environment } from '../runner/environment.ts';
import { runDataProperty } from '../runner/run-data-property.ts';
import { pgtapTest } from './pgtap.ts';
import type { FailureRecord } from './schema.ts';
import { failureRecordOf } from './store.ts';

const run = promisify(execFile);
/** `<root>/<version>/<rest>` for every Postgres version Debian installed, newest first. */
const perVersion = (root: string, rest: string) => (existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)).map((v) => path.join(root, v, rest)) : []);
const PGTAP_SQL = process.env.POLICYFUZZ_PGTAP_SQL ?? perVersion('/usr/share/postgresql', 'extension/pgtap.sql').find((p) => existsSync(p));
const PSQL = ['/usr/bin/psql', ...perVersion('/usr/lib/postgresql', 'bin/psql')].find((p) => existsSync(p));
const missing = !PGTAP_SQL || !existsSync(PGTAP_SQL) ? 'pgTAP (Debian: apt-get install pgtap, or set POLICYFUZZ_PGTAP_SQL to pgtap.sql)' : !PSQL ? 'psql (Debian: apt-get install postgresql-client)' : undefined;
if (missing && (process.env.CI === 'true' || process.env.POLICYFUZZ_REQUIRE_PGTAP === '1')) throw new Error(`the pgTAP test needs ${missing}; .ci/run installs it`);
if (missing) console.warn(`SKIPPED: the pgTAP test needs ${missing}`);

const mutant = loadMigrationFolder(path.join(BUNDLED_MUTANTS, 'R02-users-role', 'mutants')).find((m) => m.name === 'R02-guard-trigger-dropped.sql')!;
let broken: Environment;
let fixed: Environment;
let record: FailureRecord;
let dir: string;

/** The worker database's URL on the shared test server, with pgTAP loaded from its SQL file. */
const loaded = new Map<Environment, string>();
async function withPgtap(env: Environment): Promise<string> {
  await env.workers[0].tx.flush(); // the last case's rollback, still pending, holds its rows
  if (loaded.has(env)) return loaded.get(env)!;
  const url = new URL(inject('databaseUrl'));
  url.pathname = `/${env.workers[0].client.database}`;
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(readFileSync(PGTAP_SQL!, 'utf8'));
  } finally {
    await admin.end();
  }
  loaded.set(env, url.toString());
  return url.toString();
}

/** The file as pg_prove runs it: psql, TAP on stdout. */
async function prove(url: string, file: string): Promise<{ tap: string; ok: boolean }> {
  const r = await run(PSQL!, ['-X', '-q', '-t', '-A', '-v', 'ON_ERROR_STOP=1', '-d', url, '-f', file]).catch((e: { stdout: string; stderr: string }) => ({ stdout: e.stdout, stderr: e.stderr }));
  expect(r.stderr.replace(/^psql:.*NOTICE.*\n?/gm, '')).not.toMatch(/ERROR/);
  const tap = r.stdout;
  const plan = /^1\.\.(\d+)$/m.exec(tap);
  expect(plan, tap).not.toBeNull();
  const results = tap.split('\n').filter((l) => /^(not )?ok \d+/.test(l));
  expect(results).toHaveLength(Number(plan![1]));
  return { tap, ok: results.every((l) => l.startsWith('ok')) };
}

beforeAll(async () => {
  if (missing) return;
  [broken, fixed] = await Promise.all([referenceEnvironment({ extra: [mutant] }), referenceEnvironment()]);
  const result = await runDataProperty(broken, R02, { seed: 3, runs: 300, oracle: referenceOracle });
  expect(result.status).toBe('failed');
  record = failureRecordOf(result, { policyfuzzVersion: 'test', migrationsDigest: broken.template.digest, migrations: 'packs/reference/migrations' })!;
  dir = tempDir('pgtap');
});
afterAll(async () => {
  await Promise.all([broken?.close(), fixed?.close()]);
});

describe.skipIf(missing)('pgTAP repro', () => {
  it('is a plain pgTAP file: begin, plan, the model’s assertions, finish, rollback', () => {
    const text = pgtapTest(record, broken.cache, referenceOracle);
    expect(text).toMatch(/^begin;\nselect plan\(\d+\);$/m);
    expect(text).toMatch(/select \* from finish\(\);\nrollback;\n$/);
    expect(text).not.toMatch(/^\\/m); // no psql meta-commands: supabase test db runs it as is
    expect(text).toContain("set_config(''role'', ''authenticated'', true)");
  });

  it('fails on the broken database and passes once the bug is fixed', async () => {
    const file = path.join(dir, `${record.id}.pgtap.sql`);
    writeFileSync(file, pgtapTest(record, broken.cache, referenceOracle));
    const before = await prove(await withPgtap(broken), file);
    expect(before.ok, before.tap).toBe(false);
    expect(before.tap).toMatch(/^not ok \d+ - step \d+: user .* PATCH \/rest\/v1\/users/m);
    const after = await prove(await withPgtap(fixed), file);
    expect(after.ok, after.tap).toBe(true);
  });

  it('asserts every step the model predicts: reads (read-only), writes that return rows, refusals', async () => {
    // The shrunk case with a read and a write of the caller's own row before the failing PATCH.
    const shrunk = record.case as { world: { users: Array<{ id: string }> }; steps: Array<{ caller: { kind: string; id: string } }> };
    const caller = shrunk.steps[0].caller;
    // Minimized cases often hold the caller alone: add someone else whose row the caller cannot change.
    const other = shrunk.world.users.find((u) => u.id !== caller.id) ?? { id: '00000000-0000-4000-8000-0000000000ee', email: 'other@x.test', role: 'user', permissions: [], managed_permissions: [] };
    const world = { ...shrunk.world, 'auth.users': [...((shrunk.world as Record<string, Array<{ id: string }>>)['auth.users'] ?? []).filter((u) => u.id !== other.id), { id: other.id, email: 'other@x.test', is_anonymous: false }], users: [...shrunk.world.users.filter((u) => u.id !== other.id), other] };
    const steps = [
      { caller, request: { kind: 'select', table: 'users', columns: ['id', 'display_name'], filters: [{ column: 'id', op: 'eq', value: caller.id }] } },
      { caller, request: { kind: 'update', table: 'users', patch: { display_name: 'Renamed' }, filters: [{ column: 'id', op: 'eq', value: caller.id }], returning: 'representation' } },
      { caller, request: { kind: 'update', table: 'users', patch: { display_name: 'Not mine' }, filters: [{ column: 'id', op: 'eq', value: other.id }], returning: 'representation' } },
      ...shrunk.steps,
    ];
    const longer: FailureRecord = { ...record, case: { ...shrunk, world, steps } as never, step: steps.length - 1 };
    const file = path.join(dir, 'longer.pgtap.sql');
    writeFileSync(file, pgtapTest(longer, broken.cache, referenceOracle));
    const text = readFileSync(file, 'utf8');
    for (const assertion of ['lives_ok', 'bag_eq', 'is_empty', 'throws_ok', "is((select page_total"]) expect(text).toContain(assertion);
    const after = await prove(await withPgtap(fixed), file);
    expect(after.ok, after.tap).toBe(true);
    const before = await prove(await withPgtap(broken), file);
    expect(before.tap.split('\n').filter((l) => l.startsWith('not ok')), before.tap).toEqual([expect.stringMatching(/^not ok \d+ - step 4: /)]);
  });
});
