/**
 * A multi-tenant schema on Basejump's pattern (stranger-app-18, re-created small): the tenant
 * table and its memberships in a schema the API never exposes (`bj.accounts`, `bj.account_user
 * primary key (user_id, account_id)`), the tenant row owned by a person (`primary_owner_user_id
 * not null default auth.uid()`) and its slug present exactly when it is no personal account (a
 * CHECK written as two cases), and every policy asking a definer `bj.has_role_on_account(account_id)`.
 * Before: the tenant table's shape was never read (outside the exposed schemas), so every row
 * naming it was dropped (`… references bj.accounts, which has no row in this case`); and with it
 * read, the caller was no member of the caller's tenant, so the tenant policies hid every row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../runner/environment.ts';
import { runCase, sqlEnvironment } from '../../testing/sql-environment.ts';
import type { World } from '../model/world.ts';
import type { Caller } from '../model/caller.ts';
import type { ApiRequest } from '../model/request.ts';
import { columnAgreements } from '../introspection/column-agreements.ts';
import { fixtureStatements, requestForTarget, sendableCase } from './fixtures.ts';

const SCHEMA = `
create schema bj;
grant usage on schema bj to authenticated, service_role;
create type bj.account_role as enum ('owner', 'member');
create table bj.accounts (
  id uuid primary key default gen_random_uuid(),
  primary_owner_user_id uuid not null default auth.uid() references auth.users,
  slug text unique,
  personal_account boolean not null default false,
  constraint slug_null_if_personal check ((personal_account = true and slug is null) or (personal_account = false and slug is not null))
);
create table bj.account_user (
  user_id uuid not null references auth.users on delete cascade,
  account_id uuid not null references bj.accounts on delete cascade,
  account_role bj.account_role not null,
  primary key (user_id, account_id)
);
create table bj.invitations (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references bj.accounts on delete cascade,
  invited_by uuid not null references auth.users
);
create function bj.has_role_on_account(p_account uuid) returns boolean language sql stable security definer set search_path = '' as $$
  select exists (select 1 from bj.account_user m where m.user_id = auth.uid() and m.account_id = p_account)
$$;
grant execute on function bj.has_role_on_account(uuid) to authenticated;
create table public.profiles (id uuid primary key references auth.users on delete cascade, email text not null default '');
create table public.tickets (
  id text primary key,
  account_id uuid not null references bj.accounts on delete cascade,
  title text not null
);
alter table public.profiles enable row level security;
alter table public.tickets enable row level security;
grant select on public.profiles to authenticated;
grant select, insert on public.tickets to authenticated;
create policy profiles_own on public.profiles for select to authenticated using (id = auth.uid());
create policy tickets_members on public.tickets for select to authenticated using (bj.has_role_on_account(account_id));
create policy tickets_members_insert on public.tickets for insert to authenticated with check (bj.has_role_on_account(account_id));
`;

const A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const ORDER = ['auth.users', 'users', 'pr_tickets'];
const mapping = { tables: { users: { name: 'profiles' }, pr_tickets: { name: 'tickets' } } };

let env: Environment;
beforeAll(async () => {
  env = await sqlEnvironment('tenant-membership', SCHEMA, { users: 'direct', bypassTriggers: false, mapping, tenantColumn: 'account_id' });
});
afterAll(async () => {
  await env?.close();
});

const world: World = {
  'auth.users': [
    { id: A, email: 'a@x.test', is_anonymous: false },
    { id: B, email: 'b@x.test', is_anonymous: false },
  ],
  users: [{ id: A, email: 'a@x.test' }, { id: B, email: 'b@x.test' }],
  pr_tickets: [
    { id: 'T-1', title: 'wifi' },
    { id: 'T-2', title: 'exam' },
  ],
};
const listTickets: ApiRequest = { kind: 'select', table: 'pr_tickets', columns: ['id'], filters: [], order: [{ column: 'id' }] } as unknown as ApiRequest;

async function answer(who: Caller, request: ApiRequest) {
  const plan = env.workers[0].tx.fixturePlan;
  const { testCase } = sendableCase(plan, { world, steps: [{ caller: who, request }] });
  const held = (testCase as unknown as { world: World }).world;
  const statements = fixtureStatements(held, ORDER, plan);
  const [response] = await runCase(env, statements, [{ caller: who, request: requestForTarget(plan, request) }]);
  return { statements, response };
}

describe('a tenant table and its memberships outside the exposed schemas (Basejump)', () => {
  it('reads `(key = a and col is null) or (key = b and col is not null)` as presence, booleans too', () => {
    expect(columnAgreements(`CHECK ((((personal_account = true) AND (slug IS NULL)) OR ((personal_account = false) AND (slug IS NOT NULL))))`)).toEqual([
      { kind: 'presence', key: 'personal_account', values: ['false'], columns: ['slug'], present: true },
    ]);
    expect(columnAgreements(`CHECK ((((kind = 'person'::text) AND (slug IS NULL)) OR ((kind = 'org'::text) AND (slug IS NOT NULL))))`)).toEqual([{ kind: 'presence', key: 'kind', values: ['org'], columns: ['slug'], present: true }]);
    // Both cases null-testing alike, or on two keys: no agreement.
    expect(columnAgreements(`CHECK ((((a = true) AND (b IS NULL)) OR ((a = false) AND (b IS NULL))))`)).toBeUndefined();
    expect(columnAgreements(`CHECK ((((a = true) AND (b IS NULL)) OR ((c = false) AND (b IS NOT NULL))))`)).toBeUndefined();
  });

  it('every person of the case is a member of the caller’s tenant (one row each), owned by one of them, its slug set: the caller reads every ticket the world holds', async () => {
    const { statements, response } = await answer({ kind: 'user', id: A, email: 'a@x.test' }, listTickets);
    expect(response.body).toEqual([{ id: 'T-1' }, { id: 'T-2' }]);
    const members = statements.filter((s) => s.table === 'bj.account_user');
    expect(members).toHaveLength(1);
    expect(members[0].sql).toContain(A);
    expect(members[0].sql).toContain(B);
    // An invitation names a tenant and a person too, but is no membership (not unique on the pair): none made.
    expect(statements.some((s) => s.table === 'bj.invitations')).toBe(false);
  });

  it('a model INSERT leaving the tenant out sends the caller’s, whose membership lets the policy pass', async () => {
    const insert = { kind: 'insert', table: 'pr_tickets', rows: [{ id: 'T-9', title: 'new' }], returning: 'minimal' } as unknown as ApiRequest;
    expect((await answer({ kind: 'user', id: B, email: 'b@x.test' }, insert)).response.status).toBe(201);
  });
});
