/**
 * A claims-driven multi-tenant schema (stranger-app-10): every tenant table has `org_id uuid not
 * null default private.jwt_org_id()`, the org read from the token's `app_metadata`, which a
 * trigger on the users table mirrors into `auth.users.raw_app_meta_data` (Supabase Auth copies it
 * into every token it issues). Before the fixes: every fixture row of such a table was refused
 * (the server context has no token, so the default was null: 23502, every case dropped), and a
 * signed-in caller's token carried the claims the case drew, not the org the world gave them, so a
 * restrictive tenant policy hid every row. Also a singleton settings row whose every model column
 * is mapped to null (`singleton boolean primary key default true`): its insert named no column, a
 * syntax error that ended two rules as harness errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../runner/environment.ts';
import { runCase, sqlEnvironment } from '../../testing/sql-environment.ts';
import type { World } from '../model/world.ts';
import type { Caller } from '../model/caller.ts';
import { fixtureStatements } from './fixtures.ts';
import { modelAgreement, type HistoryEntry } from '../checker/history.ts';

const SCHEMA = `
create schema private;
grant usage on schema private to anon, authenticated, service_role;
create function private.jwt_org_id() returns uuid language sql stable set search_path = '' as $$
  select nullif(auth.jwt() -> 'app_metadata' ->> 'org_id', '')::uuid
$$;
create table public.orgs (id uuid primary key default gen_random_uuid(), name text not null);
create table public.members (
  id uuid primary key references auth.users (id) on delete cascade,
  org_id uuid not null references public.orgs (id),
  role text not null default 'user'
);
create function private.sync_claims() returns trigger language plpgsql security definer set search_path = '' as $$
begin
  update auth.users set raw_app_meta_data = coalesce(raw_app_meta_data, '{}') || jsonb_build_object('org_id', new.org_id, 'role', new.role)
   where id = new.id;
  return new;
end $$;
create trigger members_claims after insert or update on public.members for each row execute function private.sync_claims();
create table public.notes (
  id bigint generated always as identity primary key,
  org_id uuid not null default private.jwt_org_id() references public.orgs (id),
  body text not null
);
alter table public.notes enable row level security;
grant select on public.notes to authenticated;
create policy notes_tenant on public.notes as restrictive for all to authenticated using (org_id = (select private.jwt_org_id()));
create policy notes_read on public.notes for select to authenticated using (true);
create view public.token_seen as select auth.jwt() -> 'app_metadata' ->> 'role' as role, auth.jwt() -> 'app_metadata' ->> 'tier' as tier;
grant select on public.token_seen to authenticated;
create table public.settings (singleton boolean primary key default true check (singleton), open boolean not null default false);
insert into public.settings default values;
`;

const A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

const environment = (tokenAppMetadata: boolean): Promise<Environment> =>
  sqlEnvironment('tenant-claims', SCHEMA, { users: 'direct', bypassTriggers: false, seededTables: ['settings'], mapping: { tables: { users: { name: 'members' }, project_settings: { name: 'settings' } } } }, tokenAppMetadata ? { tokenAppMetadata: 'auth.users' } : {});

let minted: Environment;
let drawn: Environment;
beforeAll(async () => {
  [minted, drawn] = await Promise.all([environment(true), environment(false)]);
});
afterAll(async () => {
  await minted?.close();
  await drawn?.close();
});

const world: World = {
  'auth.users': [{ id: A, email: 'a@x.test', is_anonymous: false }],
  users: [{ id: A }],
  notes: [{ id: 1, body: 'hello' }, { id: 2, body: 'again' }],
  project_settings: [{}],
};
// The case drew a token saying admin; Auth would sign what auth.users holds.
const caller: Caller = { kind: 'user', id: A, email: 'a@x.test', appMetadata: { role: 'admin' } };

const ORDER = ['auth.users', 'users', 'notes', 'project_settings'];
/** The world's fixtures, then one request, rolled back: its answer. */
const afterFixtures = async (env: Environment, caller: Caller, request: unknown) => (await runCase(env, fixtureStatements(world, ORDER, env.workers[0].tx.fixturePlan), [{ caller, request: request as never }]))[0];

describe('a tenant column whose default is the caller’s org claim', () => {
  it('is filled by the fixtures (the server has no token), every row with the same org, the users row’s', async () => {
    const rows = await afterFixtures(minted, { kind: 'service' }, { kind: 'select', table: 'notes', columns: ['id', 'org_id'], filters: [], order: [{ column: 'id' }] });
    const notes = rows.body as { id: number; org_id: string }[];
    expect(notes.map((n) => n.id)).toEqual([1, 2]);
    const members = await afterFixtures(minted, { kind: 'service' }, { kind: 'select', table: 'members', columns: ['id', 'org_id'], filters: [], order: [] });
    expect(new Set([...notes.map((n) => n.org_id), ...(members.body as { org_id: string }[]).map((m) => m.org_id)]).size).toBe(1);
  });
});

describe('tokens.appMetadata = "auth.users"', () => {
  it('a signed-in token carries the caller’s raw_app_meta_data (their org and role), not the claims the case drew', async () => {
    const seen = await afterFixtures(minted, caller, { kind: 'select', table: 'notes', columns: ['id'], filters: [], order: [{ column: 'id' }] });
    expect(seen.body).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('a key the project stores wins over the drawn one; a drawn key it never stores is still sent, so a policy trusting an admin tool’s claim is still found (claims.appMetadataRole untrusted)', async () => {
    const drawnTier: Caller = { ...caller, appMetadata: { role: 'admin', tier: 'gold' } } as Caller;
    const seen = await afterFixtures(minted, drawnTier, { kind: 'select', table: 'token_seen', columns: ['role', 'tier'], filters: [], order: [] });
    expect(seen.body).toEqual([{ role: 'user', tier: 'gold' }]);
  });

  // After stranger-app-10: a failure's note named the drawn `app_metadata.role` ("admin") where the token sent carried the stored one ("user").
  it('a failure names the app_metadata the token carried, as the database composed it, not the role the case drew', async () => {
    const answer = await afterFixtures(minted, caller, { kind: 'select', table: 'notes', columns: ['id'], filters: [], order: [{ column: 'id' }] });
    expect(answer.tokenAppMetadata).toMatchObject({ role: 'user', org_id: expect.any(String) });
    const entry = { caller, response: answer, predicted: { kind: 'allowed', rows: [], affected: 0 }, observed: { kind: 'allowed', rows: [{ id: 1 }, { id: 2 }], affected: 2 }, masked: [], hints: { claims: 'claims.appMetadataRole = "users.role"' } } as unknown as HistoryEntry;
    const reason = modelAgreement.check(entry, [])!;
    expect(reason).toContain(`token app_metadata ${JSON.stringify(answer.tokenAppMetadata)}: setting claims.appMetadataRole`);
    expect(reason).not.toContain('"admin"');
    // A token as drawn is the case's own: its drawn role is what was sent.
    const asDrawn = await afterFixtures(drawn, caller, { kind: 'select', table: 'notes', columns: ['id'], filters: [], order: [] });
    expect(asDrawn.tokenAppMetadata).toBeUndefined();
    expect(modelAgreement.check({ ...entry, response: asDrawn }, [])).toContain('token app_metadata.role "admin"');
  });

  it('without it the token is the drawn one: no org, so the tenant policy hides every row', async () => {
    const seen = await afterFixtures(drawn, caller, { kind: 'select', table: 'notes', columns: ['id'], filters: [], order: [] });
    expect(seen.body).toEqual([]);
  });
});

describe('a seeded singleton row the world writes with no column of its own', () => {
  it('is written with its defaults (no column list), replacing the seeded one', async () => {
    const rows = await afterFixtures(minted, { kind: 'service' }, { kind: 'select', table: 'settings', columns: ['singleton', 'open'], filters: [], order: [] });
    expect(rows.body).toEqual([{ singleton: true, open: false }]);
  });
});
