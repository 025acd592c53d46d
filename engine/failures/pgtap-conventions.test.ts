/**
 * The pgTAP export asserts what the model asserts, also where a target's conventions widen the
 * model's answer, under real pgTAP against real Postgres:
 * - under `conventions.grants: supabase-default` (student-union), a read the model refuses by
 *   grant may instead be answered by row security with nothing; a database that answers it with
 *   rows fails the test (it used to accept any success), and the fixed one passes;
 * - a function compared through `comparedAs` (the reference's get_vs_ticket_by_id: its remarks
 *   compared as a property, its timestamps server-assigned) passes on the clean database.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_MIGRATIONS, PROJECT_ROOT } from '../../cli/paths.ts';
import { chooseTarget } from '../config/target.ts';
import { loadMigrationFolder } from '../db/migrations.ts';
import { diffCases } from '../diff/behaviour-diff.ts';
import { predict } from '../model/predict.ts';
import { comparedAsFor } from '../checker/compare.ts';
import { packSource } from '../pack.ts';
import { openSession, type Session } from '../run/session.ts';
import { referencePack } from '../../packs/reference/index.ts';
import { sharedServer } from '../../testing/shared-server.ts';
import { pgtapMissing, prove, withPgtap } from '../../testing/pgtap.ts';
import { tempDir } from '../../testing/temp-dir.ts';
import type { DataCase } from '../runner/data-case.ts';
import { pgtapTest } from './pgtap.ts';
import type { FailureRecord } from './schema.ts';

const missing = pgtapMissing();
const sessions: Session[] = [];

function recordOf(testCase: DataCase, property: string): FailureRecord {
  return { format: 'policyfuzz-failure', formatVersion: 1, id: `${property}-000000000001`, property, title: 'test', area: 'data', seed: 1, path: '0', message: 'test', case: testCase as never, step: testCase.steps.length - 1, expected: null, actual: null, policyfuzzVersion: 'test', migrationsDigest: null, migrations: null, foundAt: new Date(0).toISOString() };
}

async function proveOn(session: Session, file: string): Promise<{ ok: boolean; tap: string }> {
  return prove(await withPgtap(session.env), file);
}

afterAll(async () => {
  for (const s of sessions) await s.close();
});

describe.skipIf(missing)('pgTAP under supabase-default grants (student-union)', () => {
  let fixed: Session;
  let broken: Session;
  beforeAll(async () => {
    const { target } = await chooseTarget(packSource(referencePack), { config: path.join(PROJECT_ROOT, 'examples', 'student-union', 'policyfuzz.config.json') });
    expect(target.fixtures?.mapping?.conventions?.grants).toBe('supabase-default');
    const leak = { name: 'zz_leak.sql', path: 'zz_leak.sql', sql: `create policy pf_leak on public.members for select to anon using (true); grant select on public.members to anon;` };
    const server = await sharedServer();
    [fixed, broken] = await Promise.all([openSession({ target, server }), openSession({ target, server, extra: [leak] })]);
    sessions.push(fixed, broken);
  });

  it('an anon read the model refuses by grant: rows back fail the test, nothing back passes it', async () => {
    const R02 = referencePack.properties.find((p) => p.id === 'R02')!;
    const world = diffCases(R02, fixed.oracle, 1, 20).map((c) => c.world).find((w) => (w.users ?? []).length > 0)!;
    const testCase: DataCase = { world, steps: [{ caller: { kind: 'anon' }, request: { kind: 'select', table: 'users', columns: '*', filters: [] } }] };
    const expected = predict(fixed.oracle, world, { kind: 'anon' }, testCase.steps[0].request).outcome;
    expect(expected).toMatchObject({ kind: 'rejected', by: 'grant' });
    const file = path.join(tempDir('pgtap-conventions'), 'anon-read.pgtap.sql');
    writeFileSync(file, pgtapTest(recordOf(testCase, 'R16'), fixed.env.cache, fixed.oracle, fixed.env.workers[0].tx.fixturePlan));
    const before = await proveOn(broken, file);
    expect(before.ok, before.tap).toBe(false);
    expect(before.tap).toMatch(/^not ok 1 - step 1: anon GET \/rest\/v1\/users/m);
    const after = await proveOn(fixed, file);
    expect(after.ok, after.tap).toBe(true);
  });
});

describe.skipIf(missing)('pgTAP of a function compared through comparedAs (reference)', () => {
  it('a function answer that comparedAs reshapes, on the clean reference: the test passes (the reshaped columns are named, not asserted)', async () => {
    const target = { migrations: loadMigrationFolder(BUNDLED_MIGRATIONS), oracle: (await chooseTarget(packSource(referencePack), { reference: true })).target.oracle, supabaseCompat: true };
    const session = await openSession({ target, server: await sharedServer() });
    sessions.push(session);
    // A case whose get_vs_ticket_by_id answer comparedAs reshapes (a remark compared as a property).
    const R12 = referencePack.properties.find((p) => p.id === 'R12')!;
    let testCase: DataCase | undefined;
    for (const c of diffCases(R12, session.oracle, 3, 300)) {
      let world = c.world;
      for (const [i, s] of c.steps.entries()) {
        const prediction = predict(session.oracle, world, s.caller, s.request);
        const as = comparedAsFor(session.oracle, s.request, world);
        const rows = prediction.outcome.kind === 'allowed' || prediction.outcome.kind === 'filtered' ? prediction.outcome.rows : null;
        if (s.request.kind === 'rpc' && as && rows?.length && JSON.stringify(as(rows)) !== JSON.stringify(rows)) testCase = { world: c.world, steps: c.steps.slice(0, i + 1) };
        world = prediction.world;
        if (testCase) break;
      }
      if (testCase) break;
    }
    if (!testCase) throw new Error('no generated case has an answer that comparedAs reshapes');
    const text = pgtapTest(recordOf(testCase, 'R12'), session.env.cache, session.oracle);
    const file = path.join(tempDir('pgtap-compared-as'), 'r12.pgtap.sql');
    writeFileSync(file, text);
    // The reshaped column is named and left out of the rows asserted (the old export held it to the model's value).
    expect(text).toMatch(/^-- remarks: compared by the model through comparedAs/m);
    const lastRows = text.split('\n').filter((l) => l.startsWith('select bag_eq(')).pop() ?? '';
    const [asked, wanted] = lastRows.split("', 'values ");
    expect(asked).toMatch(/array\[[^\]]*''remarks''/); // masked in the database's rows
    expect(wanted).toBeDefined();
    expect(wanted).not.toMatch(/"remarks"/); // and absent from the model's
    const result = await proveOn(session, file);
    expect(result.ok, `${result.tap}\n${text}`).toBe(true);
  });
});

describe.skipIf(missing)('pgTAP of a function answering a jsonb object (service-desk, returns: { field })', () => {
  it('asserts the field the model answers: passes on the desk, and fails when held to the other answer', async () => {
    const { target } = await chooseTarget(packSource(referencePack), { config: path.join(PROJECT_ROOT, 'examples', 'service-desk', 'policyfuzz.config.json') });
    const session = await openSession({ target, server: await sharedServer() });
    sessions.push(session);
    const agent = { id: '3e3e3e3e-3e3e-4e3e-8e3e-3e3e3e3e3e3e', email: 'agent@desk.example' };
    const world = {
      'auth.users': [{ id: agent.id, email: agent.email, is_anonymous: false }],
      users: [{ id: agent.id, email: agent.email, role: 'agent', department: null, permissions: [], managed_permissions: [] }],
      pr_tickets: [{ id: 'SR-1', submitter_id: agent.id, submitter_label: 'x', brief: 'printer', file_url: null, status: 'new', handler_note: null, deleted_at: null }],
    };
    const caller = { kind: 'user' as const, ...agent };
    const removes: DataCase = { world, steps: [{ caller, request: { kind: 'rpc', fn: 'soft_delete_pr_ticket', args: { p_id: 'SR-1' } } }] };
    expect(predict(session.oracle, world, caller, removes.steps[0].request).outcome).toMatchObject({ kind: 'allowed', rows: [{ value: true }] });
    const file = path.join(tempDir('pgtap-jsonb'), 'removes.pgtap.sql');
    writeFileSync(file, pgtapTest(recordOf(removes, 'R07'), session.env.cache, session.oracle, session.env.workers[0].tx.fixturePlan));
    expect((await proveOn(session, file)).ok).toBe(true);
    // Held to the other answer, the same test fails: the field itself is asserted, not only success.
    const text = pgtapTest(recordOf(removes, 'R07'), session.env.cache, session.oracle, session.env.workers[0].tx.fixturePlan);
    expect(text).toMatch(/select is\(\(select coalesce\(\(select r -> 'removed' from pg_temp\.pf_rows/);
    writeFileSync(file, text.replace(`'true'::jsonb`, `'false'::jsonb`));
    const failed = await proveOn(session, file);
    expect(failed.ok).toBe(false);
  });
});

describe.skipIf(missing)('pgTAP of a target that reads session_user (the reference with a restrictive login policy)', () => {
  it('each request logs in as authenticator, as the run did: a user reading its own row passes only so', async () => {
    // PostgREST logs in as authenticator: this policy holds for every API request and for nobody connected otherwise.
    const apiOnly = { name: 'zz_api_login.sql', path: 'zz_api_login.sql', sql: `create policy pf_api_login_only on public.users as restrictive for select to authenticated using (session_user = 'authenticator');` };
    const target = { migrations: loadMigrationFolder(BUNDLED_MIGRATIONS), oracle: (await chooseTarget(packSource(referencePack), { reference: true })).target.oracle, supabaseCompat: true };
    const session = await openSession({ target, server: await sharedServer(), extra: [apiOnly] });
    sessions.push(session);
    expect(session.env.cache.apiSessionUser).toBe('authenticator');
    const R02 = referencePack.properties.find((p) => p.id === 'R02')!;
    const world = diffCases(R02, session.oracle, 1, 20).map((c) => c.world).find((w) => (w.users ?? []).length > 0)!;
    const me = world.users![0] as { id: string; email: string };
    const caller = { kind: 'user' as const, id: me.id, email: me.email };
    const testCase: DataCase = { world, steps: [{ caller, request: { kind: 'select', table: 'users', columns: '*', filters: [{ column: 'id', op: 'eq', value: me.id }] } }] };
    expect(predict(session.oracle, world, caller, testCase.steps[0].request).outcome).toMatchObject({ kind: 'allowed', rows: [{ id: me.id }] });
    const text = pgtapTest(recordOf(testCase, 'R02'), session.env.cache, session.oracle);
    expect(text).toMatch(/^-- The target reads session_user: each request logs in as authenticator/m);
    const file = path.join(tempDir('pgtap-session-user'), 'own-row.pgtap.sql');
    writeFileSync(file, text);
    const result = await proveOn(session, file);
    expect(result.ok, `${result.tap}\n${text}`).toBe(true);
  });
});
