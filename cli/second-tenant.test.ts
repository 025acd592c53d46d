/**
 * A second tenant through the real binary (engine/target/second-tenant.ts): the reference schema
 * made multi-tenant (`orgs`; `users.org_id`, a person's membership; `pr_tickets.org_id`; a
 * definer `my_org()`), with `fixtures.tenantColumn: org_id`. Where the policies and
 * `soft_delete_pr_ticket` check the org, R02 and R07 pass (exit 0); where they forget it (the
 * reference's own, single-tenant, policies), staff read another org's people (R02) and a handler
 * soft-deletes another org's ticket (R07): exit 1, each failure naming the setting and both orgs.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { runBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { BUNDLED_MIGRATIONS } from './paths.ts';

const ORGS = `create table public.orgs (id uuid primary key default gen_random_uuid(), name text not null);
alter table public.orgs enable row level security;
alter table public.users add column org_id uuid not null references public.orgs (id);
alter table public.pr_tickets add column org_id uuid not null references public.orgs (id);
create or replace function public.my_org() returns uuid language sql stable security definer set search_path = '' as $$
  select u.org_id from public.users u where u.id = auth.uid()
$$;
grant execute on function public.my_org() to authenticated;
`;
const CHECKS_ORG = `alter policy users_select on public.users using (id = auth.uid() or (org_id = (select public.my_org()) and public.current_user_is_staff()));
alter policy users_update on public.users using (id = auth.uid() or (org_id = (select public.my_org()) and public.current_user_is_admin()))
  with check (id = auth.uid() or (org_id = (select public.my_org()) and public.current_user_is_admin()));
alter policy pr_tickets_select on public.pr_tickets using (deleted_at is null and (submitter_id = auth.uid() or (org_id = (select public.my_org()) and public.current_user_is_pr_handler())));
alter policy pr_tickets_update on public.pr_tickets using (deleted_at is null and (submitter_id = auth.uid() or (org_id = (select public.my_org()) and public.current_user_is_pr_handler())))
  with check (deleted_at is null and (submitter_id = auth.uid() or (org_id = (select public.my_org()) and public.current_user_is_pr_handler())));
create or replace function public.soft_delete_pr_ticket(p_id text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  n integer;
begin
  if auth.uid() is null or public.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  if not public.current_user_is_staff() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  if not public.current_user_is_pr_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  update public.pr_tickets t set deleted_at = now() where t.id = p_id and t.deleted_at is null and t.org_id = public.my_org();
  get diagnostics n = row_count;
  return n > 0;
end
$$;
`;

/** A project: the reference's migrations, then `orgs` (and `more`). */
function project(name: string, more: string): string {
  const dir = tempDir(`second-tenant-${name}`);
  const migrations = path.join(dir, 'supabase', 'migrations');
  mkdirSync(migrations, { recursive: true });
  cpSync(BUNDLED_MIGRATIONS, migrations, { recursive: true });
  writeFileSync(path.join(migrations, '9000_orgs.sql'), ORGS + more);
  writeFileSync(path.join(dir, 'policyfuzz.config.json'), JSON.stringify({ migrations: 'supabase/migrations', fixtures: { users: 'direct', bypassTriggers: false, tenantColumn: 'org_id' } }));
  return dir;
}

const fuzz = (dir: string) =>
  runBin(['fuzz', '--config', 'policyfuzz.config.json', '--only', 'R02,R07', '--runs', '20', '--seed', '1', '--no-sso', '--no-replay', '--time-budget', '10m', '--database-url', inject('databaseUrl'), '--report-dir', path.join(dir, 'reports'), '--failures-dir', path.join(dir, 'failures')], { cwd: dir });

describe('policyfuzz fuzz on a multi-tenant target: a second org’s copy the caller must never reach', () => {
  it('policies checking the org pass; the same policies forgetting it fail, naming fixtures.tenantColumn and both orgs', async () => {
    const [checks, forgets] = await Promise.all([fuzz(project('checks', CHECKS_ORG)), fuzz(project('forgets', ''))]);
    expect(checks.code, checks.stdout + checks.stderr).toBe(0);
    expect(checks.stdout).toMatch(/^R02\s+PASS/m);
    expect(checks.stdout).toMatch(/^R07\s+PASS/m);
    expect(forgets.code).toBe(1);
    const named = /and a copy in a second orgs row "[^"]+" the caller must never reach: setting fixtures\.tenantColumn = "org_id"\)/;
    expect(forgets.stdout).toMatch(new RegExp(`^R02 FAILED: step \\d+: rows touched: model 1, database 2 .*${named.source}`, 'm'));
    expect(forgets.stdout).toMatch(new RegExp(`^R07 FAILED: .*${named.source}`, 'm'));
    expect(forgets.stdout).toMatch(/POST \/rest\/v1\/rpc\/soft_delete_pr_ticket \{"p_id":"[^"]*~t2"\}/);
  }, 600_000);
});
