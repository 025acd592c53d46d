-- Identity and access: who the caller is is resolved ONCE per request by PostgREST's
-- db-pre-request hook (authz.check_request), which copies the caller's app id, role, department
-- and effective permissions into transaction-local settings (app.*). Policies, guards and
-- functions read those settings through the stable helpers in schema authz; nothing else reads
-- request.jwt.claims.

create extension if not exists pgcrypto with schema extensions;

create schema if not exists authz;
revoke all on schema authz from public;
grant usage on schema authz to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- users
-- ---------------------------------------------------------------------------------------------
create table public.users (
  id                  uuid primary key references auth.users (id) on delete cascade,
  email               text not null unique,
  display_name        text not null default '',
  role                text not null default 'user'
                      check (role in ('user', 'dev', 'admin', 'staff', 'pr_staff', 'vs_staff',
                                      'vp_admin', 'uni_staff', 'sa_prof')),
  department          text,
  permissions         text[] not null default '{}',
  managed_permissions text[] not null default '{}',
  created_at          timestamptz not null default pg_catalog.now(),
  updated_at          timestamptz not null default pg_catalog.now()
);

comment on column public.users.permissions is 'self-held permissions (vs, pr, house, master)';
comment on column public.users.managed_permissions is 'permissions granted through team membership (sync_my_team_permissions)';

-- ---------------------------------------------------------------------------------------------
-- The pre-request hook. Runs as the request's role after PostgREST has set request.jwt.claims,
-- so it is SECURITY DEFINER to read users whatever users' own row rules say.
-- ---------------------------------------------------------------------------------------------
create or replace function authz.check_request()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_claims  jsonb := coalesce(nullif(pg_catalog.current_setting('request.jwt.claims', true), ''), '{}')::jsonb;
  v_headers jsonb := coalesce(nullif(pg_catalog.current_setting('request.headers', true), ''), '{}')::jsonb;
  v_sub     text  := v_claims ->> 'sub';
  v_user    record;
begin
  -- Always start from nothing: a reused connection must never carry a previous caller.
  perform pg_catalog.set_config('app.user_id', '', true);
  perform pg_catalog.set_config('app.role', '', true);
  perform pg_catalog.set_config('app.dept', '', true);
  perform pg_catalog.set_config('app.permissions', '{}', true);
  perform pg_catalog.set_config('app.client_ip',
    coalesce(split_part(v_headers ->> 'x-forwarded-for', ',', 1), ''), true);

  -- Only a signed-in user token names an app user; anon and service_role tokens do not.
  if v_sub is null or v_sub = '' or (v_claims ->> 'role') is distinct from 'authenticated' then
    return;
  end if;

  perform pg_catalog.set_config('app.user_id', v_sub, true);

  select u.role, u.department,
         array(select distinct p from pg_catalog.unnest(u.permissions || u.managed_permissions) p
               where p is not null order by p) as perms
    into v_user
    from public.users u
   where u.id = v_sub::uuid;

  if found then
    perform pg_catalog.set_config('app.role', v_user.role, true);
    perform pg_catalog.set_config('app.dept', coalesce(v_user.department, ''), true);
    perform pg_catalog.set_config('app.permissions', v_user.perms::text, true);
  end if;
end;
$$;

revoke all on function authz.check_request() from public, anon, authenticated;
grant execute on function authz.check_request() to anon, authenticated, service_role, authenticator;

alter role authenticator set pgrst.db_pre_request = 'authz.check_request';
notify pgrst, 'reload config';

-- ---------------------------------------------------------------------------------------------
-- Helpers: read the settings the hook wrote. Empty means unknown means denied.
-- ---------------------------------------------------------------------------------------------
create or replace function authz.uid()
returns uuid
language sql
stable
set search_path = ''
as $$
  select nullif(pg_catalog.current_setting('app.user_id', true), '')::uuid
$$;

create or replace function authz.role()
returns text
language sql
stable
set search_path = ''
as $$
  select nullif(pg_catalog.current_setting('app.role', true), '')
$$;

create or replace function authz.dept()
returns text
language sql
stable
set search_path = ''
as $$
  select nullif(pg_catalog.current_setting('app.dept', true), '')
$$;

create or replace function authz.permissions()
returns text[]
language sql
stable
set search_path = ''
as $$
  select coalesce(nullif(pg_catalog.current_setting('app.permissions', true), ''), '{}')::text[]
$$;

create or replace function authz.has_permission(p_permission text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(p_permission = any (authz.permissions()), false)
$$;

create or replace function authz.is_admin()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(authz.role() = any (array['admin', 'dev']), false)
$$;

create or replace function authz.is_staff()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(authz.role() = any (array['admin', 'dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff']), false)
$$;

-- May the caller handle VS tickets of department p_dept? vp_admin only their own department.
create or replace function authz.can_handle_vs(p_dept text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(
    authz.is_admin()
    or authz.role() = any (array['staff', 'vs_staff'])
    or authz.has_permission('vs')
    or (authz.role() = 'vp_admin' and p_dept is not null and p_dept = authz.dept()),
    false)
$$;

create or replace function authz.is_vs_handler()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(
    authz.is_admin()
    or authz.role() = any (array['staff', 'vs_staff', 'vp_admin'])
    or authz.has_permission('vs'),
    false)
$$;

create or replace function authz.can_handle_pr()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(
    authz.is_admin()
    or authz.role() = any (array['staff', 'pr_staff'])
    or authz.has_permission('pr'),
    false)
$$;

create or replace function authz.can_handle_shop()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(
    authz.is_admin()
    or authz.role() = 'staff'
    or authz.has_permission('house')
    or authz.has_permission('master'),
    false)
$$;

revoke all on all functions in schema authz from public;
grant execute on function authz.uid(), authz.role(), authz.dept(), authz.permissions(),
  authz.has_permission(text), authz.is_admin(), authz.is_staff(), authz.can_handle_vs(text),
  authz.is_vs_handler(), authz.can_handle_pr(), authz.can_handle_shop()
  to anon, authenticated, service_role;

-- The names the rest of the app (and the spec) know them by.
create or replace function public.current_user_role()
returns text language sql stable set search_path = '' as $$ select authz.role() $$;

create or replace function public.current_user_dept()
returns text language sql stable set search_path = '' as $$ select authz.dept() $$;

create or replace function public.current_user_is_staff()
returns boolean language sql stable set search_path = '' as $$ select authz.is_staff() $$;

create or replace function public.current_user_has_permission(p_permission text)
returns boolean language sql stable set search_path = '' as $$ select authz.has_permission(p_permission) $$;

-- ---------------------------------------------------------------------------------------------
-- updated_at
-- ---------------------------------------------------------------------------------------------
create or replace function authz.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := pg_catalog.now();
  return new;
end;
$$;

create trigger users_touch before update on public.users
  for each row execute function authz.touch_updated_at();

-- ---------------------------------------------------------------------------------------------
-- users: row rules and column privileges. Owners may change their display name only; role,
-- department and permissions change through admin functions. The guard stays as the second
-- line of defence (rule 1), comparing the whole row minus an allow-list.
-- ---------------------------------------------------------------------------------------------
alter table public.users enable row level security;

create policy users_select_self_or_staff on public.users
  for select to authenticated
  using (id = (select authz.uid()) or (select authz.is_staff()));

create policy users_insert_self on public.users
  for insert to authenticated
  with check (id = (select authz.uid()) and role = 'user' and managed_permissions = '{}' and permissions = '{}');

create policy users_update_self on public.users
  for update to authenticated
  using (id = (select authz.uid()))
  with check (id = (select authz.uid()));

create policy users_update_admin on public.users
  for update to authenticated
  using ((select authz.is_admin()))
  with check ((select authz.is_admin()));

create or replace function authz.guard_users_columns()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_allowed text[] := array['display_name', 'email', 'updated_at'];
begin
  if authz.uid() is null or authz.is_admin() then
    return new;
  end if;
  if (pg_catalog.to_jsonb(new) - v_allowed) is distinct from (pg_catalog.to_jsonb(old) - v_allowed) then
    raise exception 'users: only display_name and email may be changed by the owner'
      using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger users_guard before update on public.users
  for each row execute function authz.guard_users_columns();

revoke insert, update on public.users from anon, authenticated;
revoke select on public.users from anon;
grant select on public.users to authenticated;
grant insert (id, email, display_name) on public.users to authenticated;
grant update (display_name, email) on public.users to authenticated;
