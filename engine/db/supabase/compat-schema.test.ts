/**
 * What the compatibility layer holds of a stock Supabase project's own schemas, each re-created
 * after a public app that met its absence.
 *
 * The auth schema holds what Supabase Auth's own tables give a policy to
 * read. Re-created after an app's MFA rule: a restrictive policy on every table lets a session
 * through when its `aal` claim is among the levels a definer function allows, which are `aal2`
 * alone once the user has a verified factor in auth.mfa_factors. Before the layer had that table,
 * every signed-in request met 42P01 (relation "auth.mfa_factors" does not exist).
 *
 * Supabase's service roles (supabase_auth_admin, …): a schema dump grants them; before the layer
 * made them, the migration failed: role "supabase_auth_admin" does not exist.
 *
 * Realtime: a trigger broadcasts each change of a project's rows on the project's topic
 * (realtime.broadcast_changes), and a policy on realtime.messages says who receives broadcasts.
 * Before the layer had the realtime schema, the migration failed: schema "realtime" does not exist.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareTemplate, type PreparedTemplate } from '../databases.ts';
import { sharedServer } from '../../../testing/shared-server.ts';

const MFA_APP = `
create table public.projects (id uuid primary key, owner uuid not null, name text not null);
alter table public.projects enable row level security;
create policy projects_own on public.projects for select to authenticated using (owner = (select auth.uid()));
create function public.allowed_aal() returns text[] language plpgsql security definer set search_path = '' as $$
declare factors int;
begin
  select count(*) into factors from auth.mfa_factors where user_id = (select auth.uid()) and status = 'verified';
  return case when factors > 0 then array['aal2'] else array['aal1', 'aal2'] end;
end $$;
create policy projects_mfa on public.projects as restrictive to authenticated using (array[(select auth.jwt() ->> 'aal')] <@ public.allowed_aal());
create function public.project_changes() returns trigger language plpgsql security definer as $$
begin
  perform realtime.broadcast_changes('topic:' || coalesce(new.id, old.id)::text, tg_op, tg_op, tg_table_name, tg_table_schema, new, old);
  return null;
end $$;
create trigger project_changes after insert or update or delete on public.projects for each row execute function public.project_changes();
create policy "Authenticated users can receive broadcasts" on realtime.messages for select to authenticated using (true);
-- As a schema dump grants Supabase's service roles (after nextbase's explicit-grants migration):
grant usage on schema public to supabase_auth_admin;
grant all on function public.allowed_aal() to supabase_auth_admin;
`;

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
let template: PreparedTemplate;
let client: pg.Client;

beforeAll(async () => {
  template = await prepareTemplate(await sharedServer(), { migrations: [{ name: '20240430_mfa.sql', path: '20240430_mfa.sql', sql: MFA_APP }] });
  client = new pg.Client({ connectionString: template.url });
  await client.connect();
  await client.query(`insert into auth.users (id, email) values ($1, 'a@x.test'), ($2, 'b@x.test')`, [A, B]);
  await client.query(`insert into public.projects values (gen_random_uuid(), $1, 'a'), (gen_random_uuid(), $2, 'b')`, [A, B]);
  // B has set up a second factor; A has not.
  await client.query(`insert into auth.mfa_factors (id, user_id, factor_type, status) values (gen_random_uuid(), $1, 'totp', 'verified')`, [B]);
});

afterAll(async () => {
  await client?.end();
  await template?.drop();
});

/** The project names `sub` reads with a token of assurance level `aal`, as PostgREST would run it. */
async function visible(sub: string, aal: string): Promise<string[]> {
  await client.query('begin');
  try {
    await client.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub, role: 'authenticated', aal })]);
    await client.query('set local role authenticated');
    return (await client.query<{ name: string }>('select name from public.projects order by name')).rows.map((r) => r.name);
  } finally {
    await client.query('rollback');
  }
}

describe("Supabase Auth's tables in the compatibility layer", () => {
  it('an MFA policy reads auth.mfa_factors: aal1 passes without a verified factor, only aal2 with one', async () => {
    expect(await visible(A, 'aal1')).toEqual(['a']);
    expect(await visible(B, 'aal1')).toEqual([]);
    expect(await visible(B, 'aal2')).toEqual(['b']);
  });

  it('realtime: a trigger broadcasting a change runs (nothing is sent), and realtime.messages takes policies', async () => {
    await client.query(`update public.projects set name = name || '!' where owner = $1`, [A]);
    const { rows } = await client.query(`select polname from pg_policy where polrelid = 'realtime.messages'::regclass`);
    expect(rows).toEqual([{ polname: 'Authenticated users can receive broadcasts' }]);
  });

  it("Supabase's service roles exist for a migration's grants, and can do nothing: no login, no superuser, no bypass of row security", async () => {
    const { rows } = await client.query(`select rolname, rolcanlogin, rolsuper, rolbypassrls from pg_roles where rolname in ('supabase_admin', 'supabase_auth_admin', 'supabase_storage_admin', 'dashboard_user') order by 1`);
    expect(rows.map((r) => [r.rolname, r.rolcanlogin, r.rolsuper, r.rolbypassrls])).toEqual([
      ['dashboard_user', false, false, false],
      ['supabase_admin', false, false, false],
      ['supabase_auth_admin', false, false, false],
      ['supabase_storage_admin', false, false, false],
    ]);
  });

  it('pg_net: a trigger calling net.http_post runs as the API role that wrote the row, as Supabase grants it (nothing is sent)', async () => {
    // After chatgpt-your-files: its embedding trigger failed with "permission denied for schema net".
    await client.query('begin');
    try {
      await client.query('set local role authenticated');
      expect((await client.query(`select net.http_post(url := 'https://x.test/functions/v1/embed', body := '{}'::jsonb) as id`)).rows).toEqual([{ id: '0' }]);
    } finally {
      await client.query('rollback');
    }
  });

  it("pg_net: a definer function reading pg_net's failed responses (net._http_response) is created, and reads none", async () => {
    // After Recollect: its worker-failures function failed to create, relation "net._http_response" does not exist.
    await client.query('begin');
    try {
      await client.query(`create function public.failed_hooks() returns setof bigint language sql security definer set search_path = public, net as $$ select id from net._http_response where status_code >= 300 $$`);
      expect((await client.query(`select count(*)::int as n from public.failed_hooks()`)).rows).toEqual([{ n: 0 }]);
      expect((await client.query(`select has_table_privilege('authenticated', 'net._http_response', 'select') as auth`)).rows).toEqual([{ auth: false }]);
    } finally {
      await client.query('rollback');
    }
  });

  it('sessions and identities exist as Supabase has them, and the API roles hold nothing on them', async () => {
    const { rows } = await client.query<{ t: string; anon: boolean; auth: boolean }>(
      `select t, has_table_privilege('anon', t, 'select') as anon, has_table_privilege('authenticated', t, 'select') as auth
         from unnest(array['auth.mfa_factors', 'auth.sessions', 'auth.identities']) t`,
    );
    expect(rows).toEqual([
      { t: 'auth.mfa_factors', anon: false, auth: false },
      { t: 'auth.sessions', anon: false, auth: false },
      { t: 'auth.identities', anon: false, auth: false },
    ]);
  });
});

describe("Storage's tables in the compatibility layer", () => {
  // Re-created after feedbase, whose storage migration seeds its buckets naming avif_autodetection:
  // before the layer had Storage's every column, the migration stopped (column does not exist).
  it('a migration seeding a bucket and an object names every column Storage gives them', async () => {
    await client.query('begin');
    try {
      await client.query(`insert into storage.buckets (id, name, public, avif_autodetection, file_size_limit, allowed_mime_types, owner_id) values ('avatars', 'avatars', true, false, null, null, null)`);
      const { rows } = await client.query(`insert into storage.objects (bucket_id, name, owner_id, version, user_metadata) values ('avatars', 'a/b.png', $1, 'v1', '{}') returning path_tokens`, [A]);
      expect(rows).toEqual([{ path_tokens: ['a', 'b.png'] }]);
    } finally {
      await client.query('rollback');
    }
  });
});
