/**
 * Supabase Auth's custom access token hook (config.toml `[auth.hook.custom_access_token]`): a
 * project whose policies read the role from the token (`auth.jwt() ->> 'user_role'`, Supabase's
 * RBAC guide) rather than a table. After stranger-app-7: every signed-in token lacked the claim,
 * so every staff or admin caller was refused and the run failed on the project's correct rules.
 * Here the reference's current_user_role() reads the claim a hook writes from users.role.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMigrationFolder, type MigrationFile } from '../db/migrations.ts';
import { openEnvironment, EXPOSED_SCHEMAS, type Environment } from '../runner/environment.ts';
import { runDataProperty } from '../runner/run-data-property.ts';
import { BUNDLED_MIGRATIONS } from '../../cli/paths.ts';
import { referenceOracle } from '../../packs/reference/model/index.ts';
import { R20 } from '../../packs/reference/rules/R20-no-session/property.ts';
import { sharedServer } from '../../testing/shared-server.ts';
import { tempDir } from '../../testing/temp-dir.ts';
import { readApiSchemas } from '../config/supabase-project.ts';
import { SUPABASE_EXTRA_SEARCH_PATH } from './schema-cache.ts';
import { preRequestSql } from './case-transaction.ts';

/** The hook as Supabase's docs write it: run by supabase_auth_admin, which needs its grants and a policy. */
const hook = (roleExpression: string): MigrationFile => ({
  name: '9000_role_claim_hook.sql',
  path: '(test) 9000_role_claim_hook.sql',
  sql: `
create or replace function public.custom_access_token_hook(event jsonb) returns jsonb
language plpgsql stable as $$
declare
  r text;
begin
  select u.role into r from public.users u where u.id = (event ->> 'user_id')::uuid;
  return jsonb_set(event, '{claims,user_role}', coalesce(to_jsonb(${roleExpression}), 'null'::jsonb));
end $$;
grant usage on schema public to supabase_auth_admin;
grant execute on function public.custom_access_token_hook(jsonb) to supabase_auth_admin;
revoke execute on function public.custom_access_token_hook(jsonb) from authenticated, anon, public;
grant select on table public.users to supabase_auth_admin;
create policy "the token hook reads roles" on public.users for select to supabase_auth_admin using (true);
-- Policies and definer functions now read the role from the token, not the users row.
create or replace function public.current_user_role() returns text
language sql stable security definer set search_path = ''
as $$ select case when auth.uid() is null then null else nullif(auth.jwt() ->> 'user_role', '') end $$;
`,
});

const API = { exposedSchemas: EXPOSED_SCHEMAS, extraSearchPath: SUPABASE_EXTRA_SEARCH_PATH };
const opened: Environment[] = [];
afterAll(async () => {
  for (const e of opened) await e.close();
});

async function r20(roleExpression: string, accessTokenHook: string | undefined) {
  const env = await openEnvironment({
    server: await sharedServer(),
    migrations: [...loadMigrationFolder(BUNDLED_MIGRATIONS), hook(roleExpression)],
    workers: 1,
    api: { ...API, ...(accessTokenHook ? { accessTokenHook } : {}) },
  });
  opened.push(env);
  return runDataProperty(env, R20, { seed: 3, runs: 40, oracle: referenceOracle });
}

describe('a custom access token hook writing the role into the token', () => {
  it('holds when each signed-in token is what the hook answers (admins reach the leaderboard)', async () => {
    const r = await r20('r', 'public.custom_access_token_hook');
    expect(r.failure?.message ?? r.note).toBeUndefined();
    expect(r.status).toBe('passed');
  });

  it('fails without the hook: the token carries no role, and every admin is refused', async () => {
    const r = await r20('r', undefined);
    expect(r.status).toBe('failed');
    expect(r.failure?.message).toMatch(/database answered error P0001, model expected success/);
  });

  it('a hook that writes the wrong role is found (it makes everyone an admin)', async () => {
    const r = await r20("'admin'::text", 'public.custom_access_token_hook');
    expect(r.status).toBe('failed');
    expect(r.failure?.message).toMatch(/model expected error P0001/);
  });
});

describe('the token the hook makes, as the executor and a saved repro send it', () => {
  it('carries the role the hook reads, through the compatibility layer and through a direct call (the .sql and pgTAP repros, run elsewhere)', async () => {
    const env = await openEnvironment({ server: await sharedServer(), migrations: [...loadMigrationFolder(BUNDLED_MIGRATIONS), hook('r')], workers: 1, api: { ...API, accessTokenHook: 'public.custom_access_token_hook' } });
    opened.push(env);
    const client = env.workers[0].client;
    const id = 'a0000000-0000-4000-8000-00000000000a';
    const caller = { kind: 'user' as const, id, email: 'admin@example.com' };
    const request = { kind: 'rpc' as const, schema: 'passport', fn: 'admin_leaderboard', args: {} };
    const roleInToken = async (portable: boolean) => {
      await client.query('begin');
      try {
        await client.query(`insert into auth.users (id, email) values ('${id}', 'admin@example.com'); insert into public.users (id, email, role) values ('${id}', 'admin@example.com', 'admin') on conflict (id) do update set role = 'admin'`);
        await client.query(preRequestSql(caller, request, env.cache, portable ? { portableSessionUser: true } : {}));
        return (await client.query<{ role: string | null }>(`select current_setting('request.jwt.claims', true)::jsonb ->> 'user_role' as role`)).rows[0].role;
      } finally {
        await client.query('rollback');
      }
    };
    expect(await roleInToken(false)).toBe('admin');
    expect(await roleInToken(true)).toBe('admin');
    expect(preRequestSql(caller, request, env.cache, { portableSessionUser: true })).toContain('"public"."custom_access_token_hook"(jsonb_build_object(');
  });
});

describe("config.toml's [auth.hook.custom_access_token]", () => {
  const toml = (text: string) => {
    const file = path.join(tempDir('toml'), 'config.toml');
    writeFileSync(file, text);
    return file;
  };

  it('names the hook when enabled with a pg-functions uri; an HTTP hook or a disabled one is none', () => {
    const file = toml('[api]\nschemas = ["public"]\n[auth.hook.custom_access_token]\nenabled = true\nuri = "pg-functions://postgres/public/custom_access_token_hook"\n');
    expect(readApiSchemas(file)).toMatchObject({ exposedSchemas: ['public'], accessTokenHook: 'public.custom_access_token_hook' });
    // No [api] table: the CLI's default schemas, and the hook.
    expect(readApiSchemas(toml('[auth.hook.custom_access_token]\nenabled = true\nuri = "pg-functions://postgres/auth_hooks/claims"\n'))).toMatchObject({ exposedSchemas: ['public', 'graphql_public'], accessTokenHook: 'auth_hooks.claims' });
    expect(readApiSchemas(toml('[api]\n[auth.hook.custom_access_token]\nenabled = false\nuri = "pg-functions://postgres/public/h"\n'))?.accessTokenHook).toBeUndefined();
    expect(readApiSchemas(toml('[api]\n[auth.hook.custom_access_token]\nenabled = true\nuri = "https://example.com/hook"\n'))?.accessTokenHook).toBeUndefined();
  });

  it('a malformed uri is a one-line usage error naming the expected shape', () => {
    const file = toml('[auth.hook.custom_access_token]\nenabled = true\nuri = "pg-functions://public.custom_access_token_hook"\n');
    expect(() => readApiSchemas(file)).toThrow(/uri "pg-functions:\/\/public.custom_access_token_hook" is not pg-functions:\/\/<database>\/<schema>\/<function>/);
  });
});
