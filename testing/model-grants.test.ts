/**
 * GRANT01: a pack made with definePack gets its model's grants checked against the catalog, as
 * the reference's R15/R16 catalog halves check the reference model's. A small pack states that
 * `notes` is the signed-in users' only and `note_count()` is theirs and the server's to execute;
 * its migrations grant exactly that and GRANT01 passes; a later migration that grants EXECUTE to
 * anon (Supabase's default privileges, a revoke forgotten) or SELECT on the table fails it, naming
 * the object, the role and what the model says. Through the binary.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { runBin } from './run-bin.ts';
import { tempDir } from './temp-dir.ts';

const MIGRATION = `
create table public.notes (id uuid primary key, owner_id uuid not null, body text not null default '');
alter table public.notes enable row level security;
create policy notes_own on public.notes for all to authenticated using (owner_id = (select auth.uid()));
revoke all on table public.notes from anon;
create function public.note_count() returns integer language sql stable security definer set search_path = ''
  as $$ select count(*)::int from public.notes where owner_id = (select auth.uid()) $$;
revoke execute on function public.note_count() from public, anon;
-- Left to Postgres' default, EXECUTE to PUBLIC, as supabase-custom-claims leaves its functions: the model gives it to every API role.
create function public.echo(p text) returns text language sql immutable as $$ select p $$;
`;

const PACK = `
import { allowed, definePack, defineFunction, defineProperty, defineTable, fc, z, type Caller, type DataCase } from 'policyfuzz';
const notes = defineTable({
  table: 'notes', primaryKey: ['id'], rowSecurity: true,
  columns: [{ name: 'id', type: 'uuid', nullable: false }, { name: 'owner_id', type: 'uuid', nullable: false }, { name: 'body', type: 'text', nullable: false, default: '' }],
  grants: { anon: [], authenticated: ['select', 'insert', 'update', 'delete'] },
  rules: { select: (r, c) => r.owner_id === c.uid },
});
const noteCount = defineFunction({
  name: 'note_count', args: [], executableBy: ['authenticated', 'service_role'],
  predict: (world, caller) => ({ outcome: allowed([{ value: (world.notes ?? []).filter((n) => caller.kind === 'user' && n.owner_id === caller.id).length }], 0), world }),
});
const echo = defineFunction({ name: 'echo', args: ['p'], executableBy: ['anon', 'authenticated', 'service_role'], predict: (world, _c, args) => ({ outcome: allowed([{ value: args.p }], 1), world }) });
const N01 = defineProperty({
  id: 'N01', rule: 1, title: 'notes: read by their owner', tables: ['notes'],
  cases: () => fc.uuid({ version: 4 }).map((id): DataCase => ({ world: { 'auth.users': [{ id, email: 'a@n.test' }], notes: [{ id, owner_id: id, body: '' }] },
    steps: [{ caller: { kind: 'user', id } as Caller, request: { kind: 'select', table: 'notes', columns: '*', filters: [] } }] })),
});
export default definePack({ name: 'grants', model: { tables: { notes }, functions: { note_count: noteCount, echo }, fixtureOrder: ['auth.users', 'notes'] }, settingsSchema: z.object({}).strict(), properties: [N01] });
`;

function project(extra?: string): string {
  const dir = tempDir('model-grants');
  mkdirSync(path.join(dir, 'migrations'));
  writeFileSync(path.join(dir, 'migrations', '20250101000000_notes.sql'), MIGRATION);
  if (extra) writeFileSync(path.join(dir, 'migrations', '20250201000000_later.sql'), extra);
  writeFileSync(path.join(dir, 'policyfuzz.pack.ts'), PACK);
  writeFileSync(path.join(dir, 'policyfuzz.config.json'), JSON.stringify({ pack: './policyfuzz.pack.ts', migrations: 'migrations' }));
  return dir;
}

async function grants(dir: string) {
  const run = await runBin(['fuzz', '--config', path.join(dir, 'policyfuzz.config.json'), '--only', 'GRANT01', '--database-url', inject('databaseUrl'), '--seed', '1', '--no-replay', '--no-color', '--report', 'json', '--report-dir', path.join(dir, 'r'), '--failures-dir', path.join(dir, 'f')], { cwd: dir });
  const summary = JSON.parse(readFileSync(path.join(dir, 'r', 'summary.json'), 'utf8')) as { properties: { id: string; status: string; cases: number }[] };
  return { ...run, property: summary.properties.find((p) => p.id === 'GRANT01:catalog') };
}

describe("GRANT01: a definePack pack's grants against the catalog", () => {
  it('passes when the target grants what the model states (EXECUTE to PUBLIC where the model gives it to every API role: nothing more reaches the API)', async () => {
    const run = await grants(project());
    expect(run.property).toMatchObject({ status: 'passed', cases: 3 });
    expect(run.code).toBe(0);
  });

  it('fails on an EXECUTE granted to anon, and on a SELECT the model does not give anon, naming each', async () => {
    const run = await grants(project('grant execute on function public.note_count() to anon;\ngrant select on public.notes to anon;\n'));
    expect(run.property?.status).toBe('failed');
    expect(run.stdout).toContain('public.note_count(): anon may execute it, the model says it may not');
    expect(run.stdout).toContain('notes: anon holds SELECT, the model says it lacks it');
    expect(run.code).toBe(1);
  });

  it('a table grant in a schema the role has no USAGE on is not held (an app revoking anon from schema public): no finding', async () => {
    const run = await grants(project('grant select on public.notes to anon;\nrevoke all on schema public from public, anon;\ngrant usage on schema public to authenticated, service_role;\n'));
    expect(run.stdout).not.toContain('notes: anon holds SELECT');
    expect(run.property?.status).toBe('passed');
  });

  it("under conventions.grants supabase-default, the defaults' extra grants are accepted where row security or the body decides", async () => {
    const dir = project('grant execute on function public.note_count() to anon;\ngrant select on public.notes to anon;\n');
    writeFileSync(path.join(dir, 'policyfuzz.config.json'), JSON.stringify({ pack: './policyfuzz.pack.ts', migrations: 'migrations', mapping: { conventions: { grants: 'supabase-default' } } }));
    const run = await grants(dir);
    expect(run.property?.status).toBe('passed');
  });

  it('a write grant on a view Postgres cannot write through grants nothing: stated or not, no finding; on a table it is one', async () => {
    // After Atomic CRM: `grant all on contacts_summary` (a GROUP BY view) to the API roles; a model
    // stating SELECT only failed GRANT01 with INSERT, UPDATE and DELETE "held".
    const dir = project(`create view public.note_totals with (security_invoker = on) as select owner_id, count(*) as n from public.notes group by owner_id;
revoke all on public.note_totals from anon;
grant all on public.note_totals to authenticated;
`);
    const view = `const totals = defineTable({ table: 'note_totals', primaryKey: ['owner_id'], rowSecurity: true, columns: [{ name: 'owner_id', type: 'uuid', nullable: false }, { name: 'n', type: 'integer', nullable: false }],
  grants: { anon: [], authenticated: ['select'] }, view: () => [], rules: {} });
export default`;
    writeFileSync(path.join(dir, 'policyfuzz.pack.ts'), PACK.replace('export default', view).replace('tables: { notes }', 'tables: { notes, note_totals: totals }'));
    const run = await grants(dir);
    expect(run.stdout).not.toContain('note_totals: authenticated holds');
    expect(run.property).toMatchObject({ status: 'passed', cases: 4 });
  });

  it('under supabase-default, a table-level UPDATE where the model grants some columns only is a finding (row security cannot narrow columns); the column grant passes', async () => {
    // After SupabaseAuthWithSSR: a user's own-row UPDATE policy let them set users.is_admin; a model
    // granting UPDATE on the editable columns only passed GRANT01, the table-level UPDATE "accepted".
    const columnPack = PACK.replace("grants: { anon: [], authenticated: ['select', 'insert', 'update', 'delete'] }", "grants: { anon: [], authenticated: ['select', 'insert', 'delete'], columnUpdate: { authenticated: ['body'] } }");
    const config = JSON.stringify({ pack: './policyfuzz.pack.ts', migrations: 'migrations', mapping: { conventions: { grants: 'supabase-default' } } });
    const whole = project('grant update on public.notes to authenticated;\n');
    const narrowed = project('revoke update on public.notes from authenticated;\ngrant update (body) on public.notes to authenticated;\n');
    for (const dir of [whole, narrowed]) {
      writeFileSync(path.join(dir, 'policyfuzz.pack.ts'), columnPack);
      writeFileSync(path.join(dir, 'policyfuzz.config.json'), config);
    }
    const held = await grants(whole);
    expect(held.property?.status).toBe('failed');
    expect(held.stdout).toContain('notes: authenticated holds UPDATE, the model says it lacks it (on every column: the model grants it on the columns in grants.columnUpdate only, and row security cannot narrow columns)');
    expect((await grants(narrowed)).property?.status).toBe('passed');
  });
});
