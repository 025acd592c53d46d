/**
 * A legacy users table ported onto Supabase (stranger-app-11): keyed by its own bigint, linked to
 * the auth identity by `auth_user_id uuid unique references auth.users`, made by a signup trigger
 * that links an invited row by e-mail. Mapped with `bigintIds: ["id"]` and `authIdentity:
 * "auth_user_id"`, the fixtures write the world's users with their own keys and the caller's auth
 * id beside them, and a signed-in caller is found by the target's `auth_user_id = auth.uid()`.
 * Before `authIdentity`, the fixtures removed the trigger's rows by `id = any(uuid[])` and every
 * case of every rule was a harness error ("operator does not exist: bigint = uuid").
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrationFolder } from '../db/migrations.ts';
import { openEnvironment, type Environment } from '../runner/environment.ts';
import { sharedServer } from '../../testing/shared-server.ts';
import { tempDir } from '../../testing/temp-dir.ts';
import type { World } from '../model/world.ts';
import { valueToTarget, type TargetMapping } from '../mapping/mapping.ts';
import { fixtureStatements, fixtureStatementsPerRow } from './fixtures.ts';

const SCHEMA = `
create table public.users (
  id bigserial primary key,
  auth_user_id uuid unique references auth.users (id) on delete set null,
  email text not null unique,
  role text not null default 'user'
);
create function public.link_auth_user() returns trigger language plpgsql security definer set search_path = '' as $$
begin
  update public.users set auth_user_id = new.id where email = new.email and auth_user_id is null;
  if not found then insert into public.users (auth_user_id, email) values (new.id, new.email); end if;
  return new;
end $$;
create trigger on_auth_user_created after insert on auth.users for each row execute function public.link_auth_user();
alter table public.users enable row level security;
create policy users_own on public.users for select to authenticated using (auth_user_id = auth.uid());
grant select on public.users to authenticated;
`;

const A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const MAPPING: TargetMapping = { tables: { users: { bigintIds: ['id'], authIdentity: 'auth_user_id' } } };

let env: Environment;
beforeAll(async () => {
  const dir = tempDir('auth-identity');
  writeFileSync(path.join(dir, '0001_users.sql'), SCHEMA);
  env = await openEnvironment({ server: await sharedServer(), migrations: loadMigrationFolder(dir), workers: 1, fixtures: { users: 'auth-trigger', bypassTriggers: false, mapping: MAPPING } });
});
afterAll(() => env?.close());

const WORLD: World = {
  'auth.users': [
    { id: A, email: 'a@x.test', is_anonymous: false },
    { id: B, email: 'b@x.test', is_anonymous: false },
  ],
  users: [
    { id: A, email: 'a@x.test', role: 'staff' },
    { id: B, email: 'b@x.test', role: 'user' },
  ],
};

async function afterFixtures<T>(read: () => Promise<T>): Promise<T> {
  const tx = env.workers[0].tx;
  const order = ['auth.users', 'users'];
  await tx.begin(fixtureStatements(WORLD, order, tx.fixturePlan), () => fixtureStatementsPerRow(WORLD, order, tx.fixturePlan));
  try {
    return await read();
  } finally {
    await tx.end();
  }
}

describe('a users table keyed by its own id, linked to auth.users by another column (mapping authIdentity)', () => {
  it("holds the world's users under their own keys, each with the auth id the caller signs in as", async () => {
    const rows = await afterFixtures(async () => (await env.workers[0].tx.send({ kind: 'service' }, { kind: 'select', table: 'users', columns: ['id', 'auth_user_id', 'role'], filters: [], order: [{ column: 'role' }] } as never)).body);
    expect(rows).toEqual([
      { id: valueToTarget(MAPPING, 'users', 'id', A), auth_user_id: A, role: 'staff' },
      { id: valueToTarget(MAPPING, 'users', 'id', B), auth_user_id: B, role: 'user' },
    ]);
  });

  it('a signed-in caller is found by the target as the world says: their own row, under row security', async () => {
    const rows = await afterFixtures(async () => (await env.workers[0].tx.send({ kind: 'user', id: B, email: 'b@x.test' }, { kind: 'select', table: 'users', columns: ['role'], filters: [] } as never)).body);
    expect(rows).toEqual([{ role: 'user' }]);
  });
});
