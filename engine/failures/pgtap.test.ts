/**
 * A saved failure's pgTAP test under real pgTAP (Debian's, loaded from its SQL file) against
 * real Postgres: it fails on the broken database (the R02 guard trigger dropped) and passes
 * once the bug is gone. Without pgTAP it is skipped outside CI (testing/pgtap.ts); a mapped
 * target's pgTAP test is run in examples/student-union.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceOracle } from '../../packs/reference/model/index.ts';
import { R02 } from '../../packs/reference/rules/R02-users-role/property.ts';
import { R10 } from '../../packs/reference/rules/R10-projects/property.ts';
import { BUNDLED_MIGRATIONS, BUNDLED_MUTANTS } from '../../cli/paths.ts';
import { applyEdits, parseMutant } from '../mutants/mutant-files.ts';
import { sharedServer } from '../../testing/shared-server.ts';
import { referenceEnvironment } from '../../testing/reference.ts';
import { tempDir } from '../../testing/temp-dir.ts';
import { loadMigrationFolder } from '../db/migrations.ts';
import { openEnvironment, type Environment } from '../runner/environment.ts';
import { runDataProperty } from '../runner/run-data-property.ts';
import { pgtapTest } from './pgtap.ts';
import type { FailureRecord } from './schema.ts';
import { failureRecordOf } from './store.ts';
import { pgtapMissing, prove, withPgtap } from '../../testing/pgtap.ts';

const missing = pgtapMissing();

const mutant = loadMigrationFolder(path.join(BUNDLED_MUTANTS, 'R02-users-role', 'mutants')).find((m) => m.name === 'R02-guard-trigger-dropped.sql')!;
// A leak seen only through an embed (`*,sign_requests(*)`): its own endpoint is guarded.
const embedLeak = parseMutant(loadMigrationFolder(path.join(BUNDLED_MUTANTS, 'R10-projects', 'mutants')).find((m) => m.name === 'R10-sign-requests-guarded-on-their-own-endpoint-only.sql')!);
let broken: Environment;
let fixed: Environment;
let record: FailureRecord;
let dir: string;

beforeAll(async () => {
  if (missing) return;
  [broken, fixed] = await Promise.all([
    openEnvironment({ server: await sharedServer(), migrations: applyEdits(embedLeak, loadMigrationFolder(BUNDLED_MIGRATIONS)), extra: [mutant] }),
    referenceEnvironment(),
  ]);
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

  it("calls the target's db-pre-request between the settings and the statement, as the executor does: a hook that refuses every request fails the test on the fixed database", async () => {
    const url = await withPgtap(fixed);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`create or replace function public.pf_closed_for_maintenance() returns void language plpgsql as $$ begin raise exception using errcode = '28000', message = 'closed for maintenance'; end $$;
        grant execute on function public.pf_closed_for_maintenance() to anon, authenticated, service_role`);
    } finally {
      await client.end();
    }
    const file = path.join(dir, `${record.id}.pre-request.pgtap.sql`);
    const text = pgtapTest(record, { ...fixed.cache, preRequest: 'public.pf_closed_for_maintenance' }, referenceOracle);
    expect(text).toMatch(/select "?public"?\."?pf_closed_for_maintenance"?\(\)/);
    writeFileSync(file, text);
    const closed = await prove(url, file);
    expect(closed.ok, closed.tap).toBe(false);
    // The same failure without the hook passes there (the previous test): the hook is what fails it.
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

  it('an embed leak: the embedded rows are asserted per parent, whatever their order, so it fails on the broken database', async () => {
    const result = await runDataProperty(broken, R10, { seed: 1, runs: 300, oracle: referenceOracle });
    expect(result.status).toBe('failed');
    const leak = failureRecordOf(result, { policyfuzzVersion: 'test', migrationsDigest: broken.template.digest, migrations: 'packs/reference/migrations' })!;
    const file = path.join(dir, `${leak.id}.pgtap.sql`);
    writeFileSync(file, pgtapTest(leak, broken.cache, referenceOracle));
    expect(readFileSync(file, 'utf8')).toMatch(/embeds \d+ project_sign_requests row\(s\) under their parents/);
    const before = await prove(await withPgtap(broken), file);
    expect(before.tap, before.tap).toMatch(/^not ok \d+ - step \d+: .*embeds \d+ project_sign_requests row/m);
    const after = await prove(await withPgtap(fixed), file);
    expect(after.ok, after.tap).toBe(true);
  });
});
