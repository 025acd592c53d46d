-- Foundation: tables live in `private` (never exposed), the API is the `api` schema of
-- security_invoker views and functions (config.toml: schemas = ["api", "passport"]).
-- Supabase's default privileges cover `public` only, so every grant here is explicit (rule 16).

create schema if not exists private;
create schema if not exists api;
revoke all on schema private from public, anon, authenticated;
grant usage on schema private to service_role;
grant usage on schema api to anon, authenticated, service_role;

-- Vocabularies as enum types.
create type private.app_role as enum (
  'user', 'dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'sa_prof', 'admin'
);
create type private.vs_status as enum ('open', 'in_progress', 'resolved', 'closed', 'duplicate');
create type private.order_status as enum (
  'pending', 'review', 'slip_mismatch', 'paid', 'shipped', 'completed', 'cancelled'
);
create type private.node_kind as enum ('root', 'division', 'team', 'unit');
create type private.request_verdict as enum ('pending', 'approved', 'rejected');
create type private.sign_status as enum ('pending', 'signed', 'declined');

-- Department codes are short upper-case codes (SE included); no list table.
create domain private.dept_code as text check (value ~ '^[A-Z]{2,8}$');

-- ---------------------------------------------------------------------------
-- users: one row per auth user, made by the signup trigger below.
-- ---------------------------------------------------------------------------
create table private.users (
  id uuid primary key references auth.users (id) on delete restrict,
  email text check (email is null or email ~* '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  display_name text not null default '',
  role private.app_role,                       -- null: no role (denied everywhere)
  department private.dept_code,
  permissions text[] not null default '{}',
  managed_permissions text[] not null default '{}',
  effective_permissions text[] generated always as (permissions || managed_permissions) stored,
  avatar_url text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table private.users enable row level security;

-- Audit trail of privileged changes; written by triggers (definer), read by nobody via the API.
create table private.audit_log (
  id bigint generated always as identity primary key,
  table_name text not null,
  row_key text not null,
  actor uuid,
  change jsonb not null,
  at timestamptz not null default now()
);
alter table private.audit_log enable row level security;

-- ---------------------------------------------------------------------------
-- Helpers (definer: they read private.users whatever its row rules, rule 17).
-- Exposed in `api` because the spec lists them as callable by anon and authenticated.
-- ---------------------------------------------------------------------------
create function api.current_user_role() returns text
language sql stable security definer set search_path = '' as $$
  select u.role::text from private.users u where u.id = auth.uid()
$$;

create function api.current_user_dept() returns text
language sql stable security definer set search_path = '' as $$
  select u.department::text from private.users u where u.id = auth.uid()
$$;

create function api.current_user_is_staff() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((
    select u.role in ('dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'admin')
    from private.users u where u.id = auth.uid()
  ), false)
$$;

create function api.current_user_has_permission(p_permission text) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((
    select p_permission = any (u.effective_permissions)
    from private.users u where u.id = auth.uid() and u.role is not null
  ), false)
$$;

create function api.current_user_is_admin() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((
    select u.role in ('dev', 'admin') from private.users u where u.id = auth.uid()
  ), false)
$$;

-- VS handling: dev/admin/vs_staff any department; vp_admin and holders of `vs` their own.
create function api.current_user_can_handle_vs(p_dept text) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((
    select case
      when u.role is null then false
      when u.role in ('dev', 'admin', 'vs_staff') then true
      when u.role = 'vp_admin' then p_dept is not null and u.department::text = p_dept
      when 'vs' = any (u.effective_permissions) then p_dept is not null and u.department::text = p_dept
      else false
    end
    from private.users u where u.id = auth.uid()
  ), false)
$$;

create function api.current_user_is_pr_handler() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((
    select u.role in ('dev', 'admin', 'staff', 'pr_staff') or 'pr' = any (u.effective_permissions)
    from private.users u where u.id = auth.uid() and u.role is not null
  ), false)
$$;

create function api.current_user_is_shop_handler() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((
    select u.role in ('dev', 'admin', 'staff') or 'house' = any (u.effective_permissions)
    from private.users u where u.id = auth.uid() and u.role is not null
  ), false)
$$;

create function api.current_user_is_project_actor() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((
    select u.role in ('dev', 'admin', 'staff', 'uni_staff', 'sa_prof')
        or 'master' = any (u.effective_permissions)
    from private.users u where u.id = auth.uid() and u.role is not null
  ), false)
$$;

-- Rule 1: the columns of a row that changed, minus an allow-list (whole row compared, so a
-- new column is guarded by default). Generated columns and updated_at are always left out.
create function private.changed_columns(p_old jsonb, p_new jsonb, p_allowed text[])
returns text[] language sql immutable set search_path = '' as $$
  select coalesce(array_agg(k order by k), '{}')
  from jsonb_object_keys(p_new) k
  where k <> all (p_allowed)
    and k not in ('updated_at', 'is_duplicate', 'effective_permissions')
    and (p_old -> k) is distinct from (p_new -> k)
$$;

create function private.touch_updated_at() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.updated_at := now();
  return new;
end $$;

create function private.audit_change() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into private.audit_log (table_name, row_key, actor, change)
  values (tg_table_name, coalesce(to_jsonb(new) ->> 'id', '?'), auth.uid(),
          jsonb_build_object('old', to_jsonb(old), 'new', to_jsonb(new)));
  return new;
end $$;

-- users guard: owners may change only their profile fields; staff/admin and server unguarded.
create function private.users_guard() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  bad text[];
begin
  if auth.uid() is null or api.current_user_is_staff() then
    return new;
  end if;
  -- department decides VS scope (a `vs` holder handles their own department): not the owner's to change
  bad := private.changed_columns(to_jsonb(old), to_jsonb(new),
                                 array['display_name', 'avatar_url', 'email']);
  if cardinality(bad) > 0 then
    raise exception 'users: you may not change %', array_to_string(bad, ', ')
      using errcode = 'insufficient_privilege';
  end if;
  return new;
end $$;

create trigger users_guard before update on private.users
  for each row execute function private.users_guard();
create trigger users_touch before update on private.users
  for each row execute function private.touch_updated_at();
create trigger users_audit_role after update of role, permissions, managed_permissions on private.users
  for each row when (old.role is distinct from new.role
                     or old.permissions is distinct from new.permissions
                     or old.managed_permissions is distinct from new.managed_permissions)
  execute function private.audit_change();

-- Signup: a users row for each auth user, no role until staff grants one... a plain `user`.
create function private.handle_new_auth_user() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into private.users (id, email, display_name, role)
  values (new.id, new.email, coalesce(new.raw_user_meta_data ->> 'name', ''), 'user')
  on conflict (id) do nothing;
  return new;
end $$;

create trigger on_auth_user_created after insert on auth.users
  for each row execute function private.handle_new_auth_user();

create policy users_read on private.users for select to authenticated
  using (id = auth.uid() or api.current_user_is_staff());
create policy users_update on private.users for update to authenticated
  using (id = auth.uid() or api.current_user_is_admin())
  with check (id = auth.uid() or api.current_user_is_admin());

create view api.users with (security_invoker = true) as
  select id, email, display_name, role, department, permissions, managed_permissions,
         effective_permissions, avatar_url, created_at, updated_at
  from private.users;
