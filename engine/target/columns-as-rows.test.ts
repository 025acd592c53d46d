/**
 * A user's role and permissions kept as rows of grant tables (stranger-app-9's RBAC): the
 * fixtures write them there, replacing what a signup trigger granted, since the users table has
 * no such column to write.
 */
import { describe, expect, it } from 'vitest';
import { schemaInTransaction } from '../../testing/schema-in-transaction.ts';
import { fixtureStatements, type FixturePlan } from './fixtures.ts';
import type { World } from '../model/world.ts';

const SCHEMA = `
create schema rbac;
create table rbac.roles (id uuid primary key default gen_random_uuid(), slug text not null unique);
insert into rbac.roles (slug) values ('user'), ('staff'), ('admin');
create table rbac.permissions (id uuid primary key default gen_random_uuid(), slug text not null unique);
insert into rbac.permissions (slug) values ('vs'), ('pr');
create table rbac.people (id uuid primary key, email text not null);
create table rbac.person_roles (person_id uuid not null references rbac.people (id) on delete cascade, role_id uuid not null references rbac.roles (id), primary key (person_id, role_id));
create table rbac.person_permissions (person_id uuid not null references rbac.people (id) on delete cascade, permission_id uuid not null references rbac.permissions (id),
  source text not null check (source in ('self', 'managed')), primary key (person_id, permission_id, source));
-- what a signup trigger does: every new person is a 'user'
create function rbac.default_role() returns trigger language plpgsql as $$
begin insert into rbac.person_roles select new.id, id from rbac.roles where slug = 'user'; return new; end $$;
create trigger default_role after insert on rbac.people for each row execute function rbac.default_role();
`;

const ALICE = '0a0a0a0a-0000-4000-8000-000000000001';
const BOB = '0b0b0b0b-0000-4000-8000-000000000002';

const plan: FixturePlan = {
  users: 'direct',
  bypassTriggers: false,
  mapping: { tables: { users: { name: 'rbac.people', columns: { role: null, permissions: null, managed_permissions: null } } } },
  columnsAsRows: {
    'users.role': { table: 'rbac.person_roles', owner: 'person_id', value: 'role_id', lookup: { table: 'rbac.roles', key: 'id', name: 'slug' } },
    'users.permissions': { table: 'rbac.person_permissions', owner: 'person_id', value: 'permission_id', lookup: { table: 'rbac.permissions', key: 'id', name: 'slug' }, fixed: { source: 'self' } },
    'users.managed_permissions': { table: 'rbac.person_permissions', owner: 'person_id', value: 'permission_id', lookup: { table: 'rbac.permissions', key: 'id', name: 'slug' }, fixed: { source: 'managed' } },
  },
};

describe('model columns kept as rows of another table (fixtures.columnsAsRows)', () => {
  const client = schemaInTransaction(SCHEMA);

  async function write(world: World) {
    await client().query('savepoint w');
    for (const s of fixtureStatements(world, ['users'], plan)) await client().query(s.sql);
    const roles = await client().query<{ person_id: string; slug: string }>(`select person_id::text, slug from rbac.person_roles join rbac.roles r on r.id = role_id order by 1, 2`);
    const permissions = await client().query<{ person_id: string; slug: string; source: string }>(`select person_id::text, slug, source from rbac.person_permissions join rbac.permissions p on p.id = permission_id order by 1, 2, 3`);
    await client().query('rollback to savepoint w');
    return { roles: roles.rows.map((r) => [r.person_id, r.slug]), permissions: permissions.rows.map((r) => [r.person_id, r.slug, r.source]) };
  }

  it("writes each person's role as the one grant they hold (the trigger's default replaced), a null role as none, and permissions by kind", async () => {
    const world: World = {
      users: [
        { id: ALICE, email: 'alice@example.com', role: 'staff', permissions: ['vs'], managed_permissions: ['pr', 'vs'] },
        { id: BOB, email: 'bob@example.com', role: null, permissions: [], managed_permissions: null },
      ],
    };
    expect(await write(world)).toEqual({
      roles: [[ALICE, 'staff']],
      permissions: [[ALICE, 'pr', 'managed'], [ALICE, 'vs', 'managed'], [ALICE, 'vs', 'self']],
    });
  });

  it('a role the roles table lacks is refused by the target (its key is NOT NULL): the case is dropped, never run as another role', async () => {
    await expect(write({ users: [{ id: ALICE, email: 'alice@example.com', role: 'committee', permissions: [], managed_permissions: [] }] })).rejects.toThrow(/null value in column "role_id"/);
    await client().query('rollback to savepoint w');
  });
});
