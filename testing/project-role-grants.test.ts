/**
 * A project's own Postgres role (after supasheet: `x-admin`, granted to authenticator, its token's
 * `role` claim set by a custom access token hook; its example schemas grant tables per role): the
 * model states the role's grants beside the API roles' (`grants.app_admin`), a caller runs as it
 * (Caller.role, the token's role claim), and the model predicts its privileges. Before, the model
 * knew anon and authenticated only: an app_admin's DELETE, which the database lets through, was
 * predicted refused by the grant (authenticated's), a false alarm on every such request. A grant
 * the role holds beyond the model's (a DELETE on audit_log) is still a finding, in the data half
 * and in GRANT01's catalog comparison.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openEnvironment, runDataProperty, type Environment } from '../api/index.ts';
import { EXPOSED_SCHEMAS } from '../engine/runner/environment.ts';
import { SUPABASE_EXTRA_SEARCH_PATH } from '../engine/executor/schema-cache.ts';
import { loadPackModule } from '../engine/config/pack-module.ts';
import { sharedServer } from './shared-server.ts';
import { runBin } from './run-bin.ts';
import { tempDir } from './temp-dir.ts';

const MIGRATION = `
do $$ begin
  if not exists (select 1 from pg_roles where rolname = 'app_admin') then create role app_admin nologin; end if;
end $$;
grant app_admin to authenticator;
grant usage on schema public to app_admin;
-- Left open (the report): with a hook, a hooked role lacking USAGE on auth was refused 42501 ("permission denied for schema auth") by the harness's hook call.
grant usage on schema auth to app_admin;
create table public.reports (id uuid primary key, owner_id uuid not null, body text not null default '');
create table public.audit_log (id uuid primary key, note text not null default '');
alter table public.reports enable row level security;
alter table public.audit_log enable row level security;
revoke all on public.reports, public.audit_log from anon, authenticated;
grant select on public.reports to authenticated;
grant select, delete on public.reports to app_admin;
grant select on public.audit_log to app_admin;
create policy reports_own on public.reports for select to authenticated using (owner_id = (select auth.uid()));
create policy reports_admin on public.reports for all to app_admin using (true);
create policy audit_admin on public.audit_log for all to app_admin using (true);
-- After supasheet's hook: the token's role is app_metadata.role where such a Postgres role exists.
create function public.role_token_hook(event jsonb) returns jsonb language plpgsql stable set search_path = '' as $$
declare
  wanted text := event -> 'claims' -> 'app_metadata' ->> 'role';
begin
  if wanted is not null and exists (select 1 from pg_roles where rolname = wanted) then
    return jsonb_set(event, '{claims,role}', to_jsonb(wanted));
  end if;
  return event;
end $$;
grant usage on schema public to supabase_auth_admin;
grant execute on function public.role_token_hook(jsonb) to supabase_auth_admin;
revoke execute on function public.role_token_hook(jsonb) from public, anon, authenticated;
`;

/** The mutant: the role given DELETE on audit_log, which the model says it lacks. */
const MUTANT = 'grant delete on public.audit_log to app_admin;\n';

/**
 * The pack, as a project writes it (`policyfuzz` resolved by the binary). `HOOKED`: the callers
 * are drawn as the hook's users (app_metadata.role), and `role` says what the hook answers.
 */
const PACK = `
import { definePack, defineProperty, defineTable, fc, z, type Caller, type DataCase } from 'policyfuzz';
const isAdmin = (c: Caller) => c.kind === 'user' && c.role === 'app_admin';
const reports = defineTable({
  table: 'reports', primaryKey: ['id'], rowSecurity: true,
  columns: [{ name: 'id', type: 'uuid', nullable: false }, { name: 'owner_id', type: 'uuid', nullable: false }, { name: 'body', type: 'text', nullable: false, default: '' }],
  grants: { anon: [], authenticated: ['select'], app_admin: ['select', 'delete'] },
  rules: { select: (r, c) => r.owner_id === c.uid || isAdmin(c.caller), deleteUsing: (_r, c) => isAdmin(c.caller) },
});
const auditLog = defineTable({
  table: 'audit_log', primaryKey: ['id'], rowSecurity: true,
  columns: [{ name: 'id', type: 'uuid', nullable: false }, { name: 'note', type: 'text', nullable: false, default: '' }],
  grants: { anon: [], authenticated: [], app_admin: ['select'] },
  rules: { select: (_r, c) => isAdmin(c.caller), deleteUsing: (_r, c) => isAdmin(c.caller) },
});
const A01 = defineProperty({
  id: 'A01', rule: 1, title: 'reports: read by their owner and app_admin, deleted by app_admin only; audit_log kept', tables: ['reports', 'audit_log'],
  cases: () => fc.tuple(fc.uuid({ version: 4 }), fc.uuid({ version: 4 }), fc.boolean(), fc.constantFrom('read', 'delete', 'delete-audit')).filter(([a, b]) => a !== b).map(([owner, other, admin, asked]): DataCase => {
    const caller: Caller = { kind: 'user', id: other, ...(admin ? { appMetadata: { role: 'app_admin' }, role: 'app_admin' } : {}) };
    const request = asked === 'read' ? { kind: 'select' as const, table: 'reports', columns: '*' as const, filters: [] }
      : { kind: 'delete' as const, table: asked === 'delete' ? 'reports' : 'audit_log', filters: [{ column: 'id', op: 'eq' as const, value: owner }], returning: 'minimal' as const };
    return { world: { 'auth.users': [{ id: owner, email: 'o@r.test' }, { id: other, email: 'x@r.test' }], reports: [{ id: owner, owner_id: owner, body: '' }], audit_log: [{ id: owner, note: '' }] }, steps: [{ caller, request }] };
  }),
});
export default definePack({ name: 'project-roles', model: { tables: { reports, audit_log: auditLog }, functions: {}, fixtureOrder: ['auth.users', 'reports', 'audit_log'] }, settingsSchema: z.object({}).strict(), properties: [A01] });
`;

/** The pack loaded as the binary loads a project's (its `policyfuzz` import is the public API). */
async function packModule() {
  const file = path.join(tempDir('project-role-pack'), 'policyfuzz.pack.ts');
  writeFileSync(file, PACK);
  return loadPackModule(file, 'the test');
}

const opened: Environment[] = [];
afterAll(async () => {
  for (const e of opened) await e.close();
});

async function environment(extra = ''): Promise<Environment> {
  const env = await openEnvironment({
    server: await sharedServer(),
    migrations: [{ name: '20250101000000_reports.sql', path: '(test) 20250101000000_reports.sql', sql: MIGRATION + extra }],
    supabaseCompat: true,
    workers: 1,
    fixtures: { users: 'direct', bypassTriggers: [] },
    api: { exposedSchemas: EXPOSED_SCHEMAS, extraSearchPath: SUPABASE_EXTRA_SEARCH_PATH, accessTokenHook: 'public.role_token_hook' },
  });
  opened.push(env);
  return env;
}

describe("a project role's grants in the model (public entry points, the token hook choosing the role)", () => {
  it("app_admin's reads and deletes agree with the database: no false 42501", async () => {
    const pack = await packModule();
    const oracle = { model: pack.model, settings: {} };
    const r = await runDataProperty(await environment(), pack.properties[0]!, { seed: 1, runs: 40, oracle });
    expect(r.failure?.message).toBeUndefined();
    expect(r.status).toBe('passed');
    // Both sides of the grant reached: app_admin's deletes allowed, the others' refused by it.
    expect(r.counts.allowed).toBeGreaterThan(0);
    expect(r.counts.rejected).toBeGreaterThan(0);
  });

  it('a DELETE granted to app_admin beyond the model (the mutant) is found, naming the role it ran as', async () => {
    const pack = await packModule();
    const r = await runDataProperty(await environment(MUTANT), pack.properties[0]!, { seed: 1, runs: 40, oracle: { model: pack.model, settings: {} } });
    expect(r.status).toBe('failed');
    expect(r.failure?.message).toMatch(/\(role=app_admin, app_metadata\.role="app_admin"\) DELETE \/rest\/v1\/audit_log/);
  });
});

/** `hooked`: config.toml enables the hook (supasheet's setup); else the caller's own role claim (Caller.role) selects app_admin. */
function project(extra?: string, hooked = false): string {
  const dir = tempDir('project-role-grants');
  mkdirSync(path.join(dir, 'migrations'));
  writeFileSync(path.join(dir, 'migrations', '20250101000000_reports.sql'), MIGRATION);
  if (hooked) writeFileSync(path.join(dir, 'config.toml'), '[auth.hook.custom_access_token]\nenabled = true\nuri = "pg-functions://postgres/public/role_token_hook"\n');
  if (extra) writeFileSync(path.join(dir, 'migrations', '20250201000000_later.sql'), extra);
  writeFileSync(path.join(dir, 'policyfuzz.pack.ts'), PACK);
  writeFileSync(path.join(dir, 'policyfuzz.config.json'), JSON.stringify({ pack: './policyfuzz.pack.ts', migrations: 'migrations' }));
  return dir;
}

async function fuzz(dir: string) {
  const run = await runBin(['fuzz', '--config', path.join(dir, 'policyfuzz.config.json'), '--only', 'A01,GRANT01', '--runs', '40', '--database-url', inject('databaseUrl'), '--seed', '1', '--no-replay', '--no-color', '--no-sso', '--report', 'json', '--report-dir', path.join(dir, 'r'), '--failures-dir', path.join(dir, 'f')], { cwd: dir });
  const summary = JSON.parse(readFileSync(path.join(dir, 'r', 'summary.json'), 'utf8')) as { properties: { id: string; status: string }[] };
  return { ...run, status: Object.fromEntries(summary.properties.map((p) => [p.id, p.status])) };
}

describe('a project role through bin/policyfuzz.mjs', () => {
  it('the schema as the model states it, its hook enabled in config.toml, passes A01 and GRANT01 (app_admin compared in the catalog), exit 0', async () => {
    const run = await fuzz(project(undefined, true));
    expect(run.status).toEqual({ A01: 'passed', 'GRANT01:catalog': 'passed' });
    expect(run.code).toBe(0);
  });

  it("the mutant fails both (no hook: the caller's role claim), GRANT01 naming app_admin's DELETE and the failure the role it ran as, exit 1", async () => {
    const run = await fuzz(project(MUTANT));
    expect(run.status).toEqual({ A01: 'failed', 'GRANT01:catalog': 'failed' });
    expect(run.stdout).toContain('audit_log: app_admin holds DELETE, the model says it lacks it');
    expect(run.stdout).toMatch(/\(role app_admin\)/);
    expect(run.code).toBe(1);
  });
});
