/**
 * A signup trigger (Supabase's `handle_new_user`: every auth.users row gets its profile, keyed by
 * the auth id, with the auth e-mail, under a UNIQUE e-mail) under `"fixtures": { "users":
 * "auth-trigger" }`: the fixtures write auth.users, the trigger makes a profile for each, and the
 * world's own users rows must be what the table then holds, no more, whatever e-mails they carry.
 * After stranger-app-7: the world's profile rows went in as an upsert over the trigger's, one
 * statement, so a row whose e-mail another identity's trigger-made profile still held was refused
 * (`profiles_email_key`, "a row with that key was already there": the case dropped).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrationFolder } from '../db/migrations.ts';
import { openEnvironment, type Environment } from '../runner/environment.ts';
import { sharedServer } from '../../testing/shared-server.ts';
import { tempDir } from '../../testing/temp-dir.ts';
import type { World } from '../model/world.ts';
import { fixtureStatements, fixtureStatementsPerRow } from './fixtures.ts';

const SCHEMA = `
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  email text not null unique,
  display_name text not null default ''
);
create function public.handle_new_user() returns trigger language plpgsql security definer set search_path = '' as $$
begin
  insert into public.profiles (id, email, display_name) values (new.id, new.email, split_part(new.email, '@', 1));
  return new;
end $$;
create trigger on_auth_user_created after insert on auth.users for each row execute procedure public.handle_new_user();
alter table public.profiles enable row level security;
grant select on public.profiles to authenticated;
`;

const A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const C = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';

let env: Environment;
beforeAll(async () => {
  const dir = tempDir('signup-trigger');
  writeFileSync(path.join(dir, '0001_profiles.sql'), SCHEMA);
  env = await openEnvironment({ server: await sharedServer(), migrations: loadMigrationFolder(dir), workers: 1, fixtures: { users: 'auth-trigger', bypassTriggers: false, mapping: { tables: { users: { name: 'profiles' } } } } });
});
afterAll(() => env?.close());

async function profilesAfterFixtures(world: World): Promise<unknown[]> {
  const tx = env.workers[0].tx;
  const order = ['auth.users', 'users'];
  await tx.begin(fixtureStatements(world, order, tx.fixturePlan), () => fixtureStatementsPerRow(world, order, tx.fixturePlan));
  try {
    const answer = await tx.send({ kind: 'service' }, { kind: 'select', table: 'profiles', columns: ['id', 'email'], filters: [], order: [{ column: 'id' }] } as never);
    return answer.body as unknown[];
  } finally {
    await tx.end();
  }
}

describe('a signup trigger making every identity its profile (auth-trigger fixtures)', () => {
  it("the world's profiles are the table's, each with the world's e-mail, even one another identity signed up with", async () => {
    const world: World = {
      'auth.users': [
        { id: A, email: 'b@x.test', is_anonymous: false },
        { id: B, email: 'a@x.test', is_anonymous: false },
        { id: C, email: 'c@x.test', is_anonymous: false },
      ],
      users: [
        { id: A, email: 'a@x.test' },
        { id: B, email: 'b@x.test' },
      ],
    };
    // C signed up but has no users row in this world: its trigger-made profile is not there either.
    expect(await profilesAfterFixtures(world)).toEqual([
      { id: A, email: 'a@x.test' },
      { id: B, email: 'b@x.test' },
    ]);
  });
});
