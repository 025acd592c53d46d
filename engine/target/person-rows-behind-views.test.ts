/**
 * A person table the API shows only through a view, and a table of another exposed schema
 * referencing the hidden table, not the view (stranger-app-9's `passport.profiles.user_id
 * references app.users`, shown as `api.users`). Re-created under other names: `core.members`
 * behind `public.members`, `public.badges.owner_id references core.members`.
 *
 * The model's people without a users row who hold a badge (R20's extra profiles) need a members
 * row the world lacks. Before: the badges' reference named `core.members`, a table no model table
 * is, so no person row was made, the world was not known unrealizable, and Postgres refused the
 * fixture (`badges_owner_id_fkey`): 269 of stranger-app-9's R20 cases dropped. Now the reference
 * names the view, and the person row is made as for a table the API shows (withIdentityRows).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../runner/environment.ts';
import { checkCase, prepareCase } from '../runner/check-case.ts';
import type { DataCase } from '../runner/data-case.ts';
import { sqlEnvironment } from '../../testing/sql-environment.ts';
import { referenceOracleWith } from '../../packs/reference/model/index.ts';
import { defaultSettings } from '../../packs/reference/model/settings.ts';
import { authUserRow, callerOf, type Person } from '../../packs/reference/generators/identities.ts';

const SCHEMA = `
create schema core;
grant usage on schema core to anon, authenticated, service_role;
create table core.members (
  id uuid primary key references auth.users (id) on delete cascade,
  email text not null,
  display_name text,
  department text,
  role text
);
create view public.members with (security_invoker = true) as select id, email, display_name, department, role from core.members;
create table public.badges (
  owner_id uuid primary key references core.members (id) on delete cascade,
  points integer not null default 0
);
alter table core.members enable row level security;
alter table public.badges enable row level security;
grant select on core.members, public.members, public.badges to authenticated;
create policy members_read on core.members for select to authenticated using (true);
create policy badges_own on public.badges for select to authenticated using (owner_id = auth.uid());
`;

const mapping = { tables: { users: { name: 'members', columns: { avatar_url: null, phone: null, permissions: null, managed_permissions: null } }, 'passport.profiles': { name: 'badges', columns: { user_id: 'owner_id', display_name: null } } } };

const member: Person = { id: 'a1000000-0000-4000-8000-0000000000a5', email: 'ann@x.test', profile: { id: 'a1000000-0000-4000-8000-0000000000a5', email: 'ann@x.test', display_name: 'Ann', role: 'user', department: null } };
const rowless: Person = { id: 'b2000000-0000-4000-8000-0000000000b5', email: 'bob@x.test' };
const world = {
  'auth.users': [member, rowless].map(authUserRow),
  users: [member.profile!],
  'passport.profiles': [member, rowless].map((p, i) => ({ user_id: p.id, display_name: null, points: i })),
};
/** The person with no users row reads their own badge. */
const readOwn: DataCase = { world, steps: [{ caller: callerOf(rowless), request: { kind: 'select', schema: 'passport', table: 'profiles', columns: '*', filters: [] } }] };

let env: Environment;
beforeAll(async () => {
  env = await sqlEnvironment('person-rows-behind-views', SCHEMA, { users: 'direct', bypassTriggers: false, mapping });
});
afterAll(() => env?.close());

describe('a reference to a person table the API shows only through its view', () => {
  it('names the view, so the person a badge names gets the members row the target needs, in the model’s world too', () => {
    expect(env.workers[0].tx.fixturePlan.shapes?.get('badges')?.find((c) => c.name === 'owner_id')?.references).toEqual(expect.objectContaining({ table: 'members', column: 'id' }));
    const prepared = prepareCase(env.workers[0].tx.fixturePlan, readOwn, referenceOracleWith(defaultSettings));
    expect(prepared.thrown).toBeUndefined();
    expect(prepared.testCase.world.users.map((u) => u.id)).toEqual([member.id, rowless.id]);
  });

  it('the case is held and checked, the caller reading their own badge: no refused fixture, no difference', async () => {
    const oracle = referenceOracleWith(defaultSettings);
    const verdict = await checkCase(env.workers[0].tx, readOwn, oracle).finally(() => env.workers[0].tx.end());
    expect(verdict.mismatch).toBeUndefined();
    expect(verdict.history).toHaveLength(1);
    expect(verdict.history[0].response).toMatchObject({ status: 200, body: [{ owner_id: rowless.id, points: 1 }] });
  });
});
