-- Supabase's API roles (cluster-wide). Created only where missing, so a real Supabase server keeps its own.
-- All NOLOGIN: policyfuzz never logs in as them (it SET ROLEs), and a server it was merely lent must not
-- be left with a login that can switch to service_role, which bypasses row security.
-- The three API roles INHERIT, as on Supabase (supabase/postgres migrations/db/migrations/
-- 20230529180330_alter_api_roles_for_inherit.sql alters them so): a privilege granted to a group
-- role they are members of reaches them. Roles left NOINHERIT by an older policyfuzz on a lent
-- server are altered the same way (on Supabase they already inherit). authenticator stays NOINHERIT.
do $$
declare
  r text;
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin inherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin inherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin inherit bypassrls;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticator') then
    create role authenticator nologin noinherit;
  end if;
  -- Supabase's service roles, which a schema dump's grants and `alter … owner to` name
  -- (`grant usage on schema public to supabase_auth_admin`). Nothing is granted to them here.
  foreach r in array array['supabase_admin', 'supabase_auth_admin', 'supabase_storage_admin', 'supabase_functions_admin',
    'supabase_realtime_admin', 'supabase_replication_admin', 'supabase_read_only_user', 'dashboard_user', 'pgbouncer'] loop
    if not exists (select 1 from pg_roles where rolname = r) then
      execute format('create role %I nologin noinherit', r);
    end if;
  end loop;
  if exists (select 1 from pg_roles where rolname = 'anon' and not rolinherit) then alter role anon inherit; end if;
  if exists (select 1 from pg_roles where rolname = 'authenticated' and not rolinherit) then alter role authenticated inherit; end if;
  if exists (select 1 from pg_roles where rolname = 'service_role' and not rolinherit) then alter role service_role inherit; end if;
end
$$;
-- Granted only where missing: a role that is not a superuser may run policyfuzz on a server that
-- has these grants already, and may not grant them again (no ADMIN OPTION on them).
do $$
declare
  r text;
begin
  foreach r in array array['anon', 'authenticated', 'service_role'] loop
    if not pg_has_role('authenticator', r, 'member') then
      execute format('grant %I to authenticator', r);
    end if;
  end loop;
end
$$;
-- The API roles' statement_timeout as Supabase sets it (role-wide: anon 3s, authenticated 8s;
-- supabase/postgres migrations/db/init-scripts and 20221207154255_update_authenticated_statement_timeout
-- style `alter role … set statement_timeout`), set only where the role has none, so a real
-- Supabase keeps its own; skipped where this role may not alter them (a lent server). The values
-- come from role-settings.ts API_ROLE_STATEMENT_TIMEOUTS (compatRolesSql fills them in). PostgREST
-- applies an impersonated role's settings per request (Query.hs setPgLocals roleSettingsSql).
do $$
declare
  pair text[];
  r text;
  v text;
begin
  foreach pair slice 1 in array /* API_ROLE_STATEMENT_TIMEOUTS */ loop
    r := pair[1];
    v := pair[2];
    if not exists (select 1 from pg_roles where rolname = r and exists (select 1 from unnest(rolconfig) c where c like 'statement_timeout=%')) then
      begin
        execute format('alter role %I set statement_timeout = %L', r, v);
      exception when insufficient_privilege then null;
      end;
    end if;
  end loop;
end
$$;
