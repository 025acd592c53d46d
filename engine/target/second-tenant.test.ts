/**
 * A second tenant's world (second-tenant.ts): a small multi-tenant schema of our own (`orgs`; a
 * person's membership is their `users.org_id`; `pr_tickets.org_id`; `org_settings` keyed by its
 * org; a definer `my_org()`), whose handlers' read policy checks the org, and a variant whose policy
 * forgets it (the most common multi-tenant bug). Before the copy, every row of a case was the
 * caller's org's, so the variant passed: no other org's row ever existed. Real Postgres, through
 * checkCase (the public API's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../runner/environment.ts';
import { sqlEnvironment } from '../../testing/sql-environment.ts';
import { checkCase } from '../runner/check-case.ts';
import { referenceOracle } from '../../packs/reference/model/index.ts';
import type { DataCase } from '../runner/data-case.ts';
import type { ApiRequest } from '../model/request.ts';
import type { Row } from '../model/json.ts';
import { holdsSecondTenant, secondTenantCase, splitByTenant } from './second-tenant.ts';
import { compareOutcomes } from '../checker/compare.ts';
import { expectedRowsOnTarget } from '../mapping/mapping.ts';
import type { Outcome } from '../model/outcome.ts';

/** `tenantCheck`: the handlers' clause of the ticket read policy (the variant leaves the org out). */
const schema = (handlersReach: string) => `
create table public.orgs (id uuid primary key default gen_random_uuid(), name text not null unique);
create table public.users (
  id uuid primary key references auth.users (id) on delete cascade,
  org_id uuid not null references public.orgs (id),
  email text not null unique,
  display_name text, avatar_url text, phone text,
  role text default 'user',
  department text,
  permissions text[] not null default '{}',
  managed_permissions text[] not null default '{}',
  updated_at timestamptz not null default now()
);
create function public.my_org() returns uuid language sql stable security definer set search_path = '' as $$
  select org_id from public.users where id = auth.uid()
$$;
create function public.is_handler() returns boolean language sql stable security definer set search_path = '' as $$
  select coalesce((select role in ('pr_staff', 'staff', 'admin', 'dev') from public.users where id = auth.uid()), false)
$$;
grant execute on function public.my_org(), public.is_handler() to authenticated;
create table public.pr_tickets (
  id text primary key,
  org_id uuid not null references public.orgs (id),
  submitter_id uuid not null references auth.users (id),
  submitter_label text not null,
  brief text not null,
  file_url text,
  status text not null default 'open',
  handler_note text,
  deleted_at timestamptz,
  updated_at timestamptz not null default now()
);
-- One row per org (a tenant-keyed table): the copy has its own.
create table public.org_settings (org_id uuid primary key references public.orgs (id), prefs jsonb not null default '{}');
alter table public.users enable row level security;
alter table public.pr_tickets enable row level security;
alter table public.org_settings enable row level security;
grant select on public.users, public.pr_tickets, public.org_settings to authenticated;
create policy org_settings_own on public.org_settings for select to authenticated using (org_id = (select public.my_org()) and (select public.is_handler()));
create policy users_self on public.users for select to authenticated using (id = auth.uid());
create policy tickets_read on public.pr_tickets for select to authenticated
  using (deleted_at is null and (submitter_id = auth.uid() or (${handlersReach})));
`;
const CHECKS_ORG = `org_id = (select public.my_org()) and (select public.is_handler())`;
const FORGETS_ORG = `(select public.is_handler())`;

const fixtures = { users: 'direct' as const, bypassTriggers: false, tenantColumn: 'org_id', mapping: { tables: { project_settings: { name: 'org_settings', columns: { key: null, value: 'prefs' } } } } };

const STAFF = '0f000000-0000-4000-8000-00000000000a';
const STUDENT = '0f000000-0000-4000-8000-00000000000b';
const person = (id: string, email: string, role: string) => ({ id, email, role, display_name: null, avatar_url: null, phone: null, department: null, permissions: [], managed_permissions: [] });
const ticket = (id: string) => ({ id, submitter_id: STUDENT, submitter_label: 'Student 1', brief: `brief ${id}`, file_url: null, status: 'open', handler_note: null, deleted_at: null });
const staff = { kind: 'user' as const, id: STAFF, email: 'staff@x.test' };
const listTickets = { kind: 'select', table: 'pr_tickets', columns: ['id', 'brief'], filters: [] } as unknown as ApiRequest;
const oneTicket = { kind: 'select', table: 'pr_tickets', columns: ['id'], filters: [{ column: 'id', op: 'eq', value: 'PR-1' }] } as unknown as ApiRequest;

const world = {
  'auth.users': [
    { id: STAFF, email: 'staff@x.test', is_anonymous: false },
    { id: STUDENT, email: 'student@x.test', is_anonymous: false },
  ],
  users: [person(STAFF, 'staff@x.test', 'staff'), person(STUDENT, 'student@x.test', 'user')],
  pr_tickets: [ticket('PR-1'), ticket('PR-2')],
  project_settings: [{ key: 'theme', value: { dark: true } }],
};

let checksOrg: Environment;
let forgetsOrg: Environment;
beforeAll(async () => {
  [checksOrg, forgetsOrg] = await Promise.all([sqlEnvironment('second-tenant', schema(CHECKS_ORG), fixtures), sqlEnvironment('second-tenant', schema(FORGETS_ORG), fixtures)]);
});
afterAll(async () => {
  await checksOrg?.close();
  await forgetsOrg?.close();
});

const check = (env: Environment, testCase: DataCase) => checkCase(env.workers[0].tx, testCase, referenceOracle);

describe('a second tenant: a copy of the case’s world in another org, which the caller must never reach', () => {
  it('the copy renames every key and e-mail, names its own people, and each step naming a row is sent again naming the copy’s', () => {
    const plan = checksOrg.workers[0].tx.fixturePlan;
    const made = secondTenantCase(plan, referenceOracle, { world, steps: [{ caller: staff, request: oneTicket }] });
    const { caller, second } = splitByTenant(made.world);
    expect(caller).toEqual(world);
    expect(second.pr_tickets.map((t) => [t.id, t.submitter_id])).toEqual([
      ['PR-1~t2', '5ec07e2a-0000-4000-8000-00000000000b'],
      ['PR-2~t2', '5ec07e2a-0000-4000-8000-00000000000b'],
    ]);
    expect(second['auth.users'].map((u) => u.email)).toEqual(['staff.t2@x.test', 'student.t2@x.test']);
    expect(made.steps.map((s) => (s.request as { filters: { value: unknown }[] }).filters[0].value)).toEqual(['PR-1', 'PR-1~t2']);
    // The caller stays in their org.
    expect(made.steps[1].caller).toEqual(staff);
    // Without a tenant column: the case as it was (the reference, any single-tenant target).
    expect(secondTenantCase({}, referenceOracle, { world, steps: [] }).world).toBe(world);
    expect(holdsSecondTenant(world)).toBe(false);
  });

  it('the policy checking the org passes: the copy’s tickets are outside every answer, its tenant-keyed row and unique e-mails held beside the caller’s', async () => {
    for (const request of [listTickets, oneTicket, { kind: 'select', table: 'project_settings', columns: ['value'], filters: [] } as unknown as ApiRequest]) {
      const verdict = await check(checksOrg, { world, steps: [{ caller: staff, request }] });
      expect(verdict.mismatch, JSON.stringify(verdict.mismatch?.reason)).toBeUndefined();
    }
    // The server belongs to no org: it reads both orgs' tickets, as the model says it does.
    const server = await check(checksOrg, { world, steps: [{ caller: { kind: 'service' }, request: listTickets }] });
    expect(server.mismatch).toBeUndefined();
    expect(server.history[0].response.body).toHaveLength(4);
  });

  it('the policy forgetting the org is caught, on a list and on the copy’s ticket by id, naming the setting and both orgs', async () => {
    const listed = await check(forgetsOrg, { world, steps: [{ caller: staff, request: listTickets }] });
    expect(listed.mismatch?.reason).toMatch(/^rows touched: model 2, database 4 /);
    expect(listed.mismatch?.reason).toContain(`in the caller's orgs row "`);
    expect(listed.mismatch?.reason).toMatch(/and a copy in a second orgs row "[^"]+" the caller must never reach: setting fixtures\.tenantColumn = "org_id"\)$/);
    expect(listed.mismatch?.actual).toMatchObject({ kind: 'allowed', rows: expect.arrayContaining([{ id: 'PR-1~t2', brief: 'brief PR-1' }]) });
    const byId = await check(forgetsOrg, { world, steps: [{ caller: staff, request: oneTicket }] });
    // The case's own step agrees; its twin naming the other org's ticket is the finding.
    expect(byId.mismatch?.step).toBe(1);
    expect(byId.mismatch?.actual).toMatchObject({ rows: [{ id: 'PR-1~t2' }] });
  });
});

describe('an alternative holding rows (another tenant’s public rows) is shown and compared as the model’s own answer', () => {
  const withPublic: Outcome = { kind: 'allowed', rows: [{ id: 'f1', kind: 'file' }], affected: 1, orElse: [{ kind: 'allowed', rows: [{ id: 'f1', kind: 'file' }, { id: 'f1~t2', kind: 'file' }], affected: 2, reading: 'another-tenant-public-rows' }] };
  const both: Outcome = { kind: 'allowed', rows: [{ id: 'f1' }, { id: 'f1~t2' }], affected: 2 };

  it('without the columns the target lacks (project_files.kind mapped to null), in the alternative too', () => {
    const request = { kind: 'select', table: 'project_files', columns: '*', filters: [] } as unknown as ApiRequest;
    const shown = expectedRowsOnTarget({ tables: { project_files: { columns: { kind: null } } } }, request, withPublic);
    expect(compareOutcomes(shown, both)).toBeUndefined();
    expect(compareOutcomes(withPublic, both)?.reason).toMatch(/^rows touched|^returned columns differ/);
  });

  it('under a function’s comparedAs, in the alternative too (the org chart of both tenants)', () => {
    const chart = (ids: string[]): Outcome => ({ kind: 'allowed', rows: [{ nodes: ids.map((id) => ({ id })) }], affected: 1 });
    const expected: Outcome = { ...chart(['n1']), orElse: [{ ...chart(['n1~t2', 'n1']), reading: 'another-tenant-public-rows' }] };
    const sortedNodes = (rows: Row[]) => rows.map((r) => ({ nodes: [...(r.nodes as { id: string }[])].sort((a, b) => a.id.localeCompare(b.id)) }));
    expect(compareOutcomes(expected, chart(['n1', 'n1~t2']), [], sortedNodes)).toBeUndefined();
    expect(compareOutcomes({ ...chart(['n1']) }, chart(['n1', 'n1~t2']), [], sortedNodes)).toBeDefined();
  });
});
