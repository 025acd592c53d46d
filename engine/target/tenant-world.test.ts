/**
 * A multi-tenant schema whose tenant is read from the caller's profile (stranger-app-16's
 * `workspace_id` on every row and `current_workspace_id()`, re-created here with a team):
 * `accounts.team_id` and `tickets.team_id` NOT NULL referencing `teams`, no default (the client
 * sends it), unique keys holding the tenant column, and policies comparing it with a definer
 * `private.my_team()`. Before `fixtures.tenantColumn`: the filler spread two tickets sharing a
 * title over two teams to satisfy `unique (team_id, title)` (the caller then saw one of the two
 * the model showed: a false alarm), and a model INSERT left `team_id` to the request (23502).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../runner/environment.ts';
import { runCase, sqlEnvironment } from '../../testing/sql-environment.ts';
import type { World } from '../model/world.ts';
import type { Caller } from '../model/caller.ts';
import type { ApiRequest } from '../model/request.ts';
import { fixtureStatements, requestForTarget, sendableCase } from './fixtures.ts';
import { tenantSettingNote } from './tenant-world.ts';

const SCHEMA = `
create schema private;
grant usage on schema private to anon, authenticated, service_role;
create table public.teams (id uuid primary key default gen_random_uuid(), handle text not null unique);
create table public.accounts (
  id uuid primary key references auth.users (id) on delete cascade,
  team_id uuid not null references public.teams (id),
  email text not null default '',
  role text not null default 'user',
  unique (team_id, email)
);
create function private.my_team() returns uuid language sql stable security definer set search_path = '' as $$
  select team_id from public.accounts where id = auth.uid()
$$;
grant execute on function private.my_team() to authenticated;
create table public.tickets (
  id text primary key,
  team_id uuid not null references public.teams (id),
  title text not null,
  unique (team_id, title)
);
create table public.team_settings (team_id uuid primary key references public.teams (id), prefs jsonb not null default '{}');
alter table public.team_settings enable row level security;
grant select on public.team_settings to authenticated;
create policy team_settings_team on public.team_settings for select to authenticated using (team_id = (select private.my_team()));
alter table public.accounts enable row level security;
alter table public.tickets enable row level security;
grant select, insert on public.tickets to authenticated;
grant select on public.accounts to authenticated;
create policy accounts_team on public.accounts for select to authenticated using (team_id = (select private.my_team()));
create policy tickets_team on public.tickets for select to authenticated using (team_id = (select private.my_team()));
create policy tickets_team_insert on public.tickets for insert to authenticated with check (team_id = (select private.my_team()));
`;

const A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const ORDER = ['auth.users', 'users', 'pr_tickets', 'project_settings'];
const mapping = { tables: { users: { name: 'accounts' }, pr_tickets: { name: 'tickets' }, project_settings: { name: 'team_settings', columns: { key: null, value: 'prefs' } } } };

const environment = (tenantColumn?: string): Promise<Environment> => sqlEnvironment('tenant-world', SCHEMA, { users: 'direct', bypassTriggers: false, mapping, ...(tenantColumn ? { tenantColumn } : {}) });

let inTenant: Environment;
let spread: Environment;
beforeAll(async () => {
  [inTenant, spread] = await Promise.all([environment('team_id'), environment()]);
});
afterAll(async () => {
  await inTenant?.close();
  await spread?.close();
});

const world: World = {
  'auth.users': [
    { id: A, email: 'a@x.test', is_anonymous: false },
    { id: B, email: 'b@x.test', is_anonymous: false },
  ],
  users: [{ id: A, email: 'a@x.test' }, { id: B, email: 'b@x.test' }],
  // Two tickets alike on title: the model lets that repeat, `unique (team_id, title)` does not within a team.
  pr_tickets: [
    { id: 'T-1', title: 'wifi' },
    { id: 'T-2', title: 'wifi' },
    { id: 'T-3', title: 'exam' },
  ],
  // Two settings rows of the model; the target keeps one per team.
  project_settings: [
    { key: 'theme', value: { dark: true } },
    { key: 'locale', value: { lang: 'en' } },
  ],
};
const caller: Caller = { kind: 'user', id: A, email: 'a@x.test' };
const listTickets: ApiRequest = { kind: 'select', table: 'pr_tickets', columns: ['id'], filters: [], order: [{ column: 'id' }] } as unknown as ApiRequest;

/** The case as the run takes it (sendableCase), its fixtures written, then `request` as `who`, rolled back. */
async function answer(env: Environment, who: Caller, request: ApiRequest) {
  const plan = env.workers[0].tx.fixturePlan;
  const { testCase } = sendableCase(plan, { world, steps: [{ caller: who, request }] });
  const held = (testCase as unknown as { world: World }).world;
  const [response] = await runCase(env, fixtureStatements(held, ORDER, plan), [{ caller: who, request: requestForTarget(plan, request) }]);
  return { held, response };
}

describe('fixtures.tenantColumn: a case’s world lives in the caller’s tenant', () => {
  it('every row of the world is the caller’s team’s, one team row: the caller reaches each ticket the world holds (the one repeating a tenant-held key left out)', async () => {
    const { held, response } = await answer(inTenant, caller, listTickets);
    expect(held.pr_tickets.map((t) => t.id)).toEqual(['T-1', 'T-3']);
    expect(response.body).toEqual([{ id: 'T-1' }, { id: 'T-3' }]);
    const teams = await answer(inTenant, { kind: 'service' }, { kind: 'select', table: 'teams', columns: ['id'], filters: [], order: [] } as unknown as ApiRequest);
    expect(teams.response.body).toHaveLength(1);
    const accounts = await answer(inTenant, caller, { kind: 'select', table: 'users', columns: ['id'], filters: [], order: [{ column: 'id' }] } as unknown as ApiRequest);
    expect(accounts.response.body).toEqual([{ id: A }, { id: B }]);
    // A table keyed by its tenant holds the caller's tenant's one row: the second is left out, not a refused fixture (23505).
    const settings = await answer(inTenant, caller, { kind: 'select', table: 'project_settings', columns: ['value'], filters: [], order: [] } as unknown as ApiRequest);
    expect(settings.held.project_settings).toEqual([{ key: 'theme', value: { dark: true } }]);
    expect(settings.response.body).toEqual([{ prefs: { dark: true } }]);
  });

  it('without it the filler spreads the tickets alike on title over two teams, and the caller sees fewer than the world holds (the false alarm)', async () => {
    const { held, response } = await answer(spread, caller, listTickets);
    expect(held.pr_tickets).toHaveLength(3);
    expect((response.body as unknown[]).length).toBeLessThan(3);
  });

  it('a model INSERT leaving the tenant column out sends the caller’s tenant, as the app’s client does: accepted (left out, the tenant policy refused it, 42501; without one, NOT NULL, 23502)', async () => {
    const insert = { kind: 'insert', table: 'pr_tickets', rows: [{ id: 'T-9', title: 'new' }], returning: 'minimal' } as unknown as ApiRequest;
    expect((await answer(inTenant, caller, insert)).response.status).toBe(201);
    const without = await answer(spread, caller, insert);
    expect(without.response.status).not.toBe(201);
  });

  it('a tenant column no table has is said when the run starts, never silently ignored', async () => {
    const said: string[] = [];
    const misspelled = await sqlEnvironment('tenant-world', SCHEMA, { users: 'direct', bypassTriggers: false, mapping, tenantColumn: 'tem_id' }, { log: (line: string) => said.push(line) });
    await misspelled.close();
    expect(said).toContainEqual(expect.stringMatching(/^fixtures\.tenantColumn: no table has a tem_id referencing another table \(misspelled/));
  });

  it('a failure names the reading as its setting', () => {
    expect(tenantSettingNote(inTenant.workers[0].tx.fixturePlan.shapes, 'team_id')).toBe(` (every row of the case in the caller's teams row: setting fixtures.tenantColumn = "team_id")`);
    expect(tenantSettingNote(spread.workers[0].tx.fixturePlan.shapes, undefined)).toBe('');
  });
});
