-- Foundation: extensions, enums, profiles made by a signup trigger, helpers, audit log.
-- A fourth team's choices: profiles (not users) filled from raw_user_meta_data, NOT NULL names,
-- a generated full_name, column-level UPDATE grants, default privileges revoked (every grant
-- explicit, rule 16), helpers STABLE SECURITY DEFINER in public, an audit table fed by triggers.

create extension if not exists "uuid-ossp" with schema extensions;
create extension if not exists citext with schema extensions;

-- Rule 16: nothing is granted by default; each table and function below grants by name.
alter default privileges in schema public revoke all on tables from anon, authenticated;
alter default privileges in schema public revoke execute on functions from anon, authenticated;
alter default privileges revoke execute on functions from public;

create type public.app_role as enum
  ('user', 'dev', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'sa_prof', 'admin');

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  email extensions.citext not null unique,
  first_name text not null check (char_length(first_name) between 1 and 80),
  last_name text not null default '',
  full_name text generated always as (trim(first_name || ' ' || last_name)) stored,
  role public.app_role not null default 'user',
  department text,
  permissions text[] not null default '{}',
  managed_permissions text[] not null default '{}',
  avatar_url text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Signup: the profile row comes from auth metadata; first_name must be given at signup.
create function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.profiles (id, email, first_name, last_name)
  values (
    new.id,
    new.email,
    coalesce(nullif(new.raw_user_meta_data ->> 'first_name', ''), split_part(new.email, '@', 1)),
    coalesce(new.raw_user_meta_data ->> 'last_name', '')
  );
  return new;
end $$;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.handle_new_user();

create function public.touch_updated_at() returns trigger
language plpgsql as $$
begin
  new.updated_at := now();
  return new;
end $$;

create trigger profiles_touch before update on public.profiles
  for each row execute function public.touch_updated_at();

-- ---------------------------------------------------------------- helpers (rule 17)

create function public.current_user_role() returns public.app_role
language sql stable security definer set search_path = '' as $$
  select p.role from public.profiles p where p.id = (select auth.uid())
$$;

create function public.current_user_dept() returns text
language sql stable security definer set search_path = '' as $$
  select p.department from public.profiles p where p.id = (select auth.uid())
$$;

create function public.has_role(variadic p_roles public.app_role[]) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select p.role = any (p_roles) from public.profiles p where p.id = (select auth.uid())),
    false)
$$;

create function public.current_user_is_staff() returns boolean
language sql stable security definer set search_path = '' as $$
  select public.has_role('dev', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'admin')
$$;

create function public.is_admin() returns boolean
language sql stable security definer set search_path = '' as $$
  select public.has_role('admin', 'dev')
$$;

create function public.current_user_has_permission(p_permission text) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select p_permission = any (p.permissions || p.managed_permissions)
       from public.profiles p where p.id = (select auth.uid())),
    false)
$$;

-- VS handlers: vs_staff, admins (every department); vp_admin and holders of `vs` (their department).
create function public.can_handle_vs_dept(p_dept text) returns boolean
language sql stable security definer set search_path = '' as $$
  -- rule 8: a handler with no department handles nothing (never null: a null skipped the guards)
  select coalesce(case
    when (select auth.uid()) is null then false
    when public.has_role('vs_staff', 'admin', 'dev') then true
    when public.has_role('vp_admin') or public.current_user_has_permission('vs')
      then p_dept is not null and p_dept = public.current_user_dept()
    else false
  end, false)
$$;

create function public.is_vs_handler() returns boolean
language sql stable security definer set search_path = '' as $$
  select public.has_role('vs_staff', 'vp_admin', 'admin', 'dev')
      or public.current_user_has_permission('vs')
$$;

create function public.can_handle_pr() returns boolean
language sql stable security definer set search_path = '' as $$
  select public.has_role('pr_staff', 'admin', 'dev') or public.current_user_has_permission('pr')
$$;

create function public.can_manage_shop() returns boolean
language sql stable security definer set search_path = '' as $$
  select public.has_role('uni_staff', 'admin', 'dev') or public.current_user_has_permission('house')
$$;

create function public.current_user_is_project_actor() returns boolean
language sql stable security definer set search_path = '' as $$
  select public.has_role('sa_prof', 'uni_staff', 'admin', 'dev')
$$;

grant execute on function public.current_user_role(), public.current_user_dept(),
  public.has_role(public.app_role[]), public.current_user_is_staff(), public.is_admin(),
  public.current_user_has_permission(text), public.can_handle_vs_dept(text),
  public.is_vs_handler(), public.can_handle_pr(), public.can_manage_shop(),
  public.current_user_is_project_actor()
  to anon, authenticated;

-- ---------------------------------------------------------------- guard (rule 1)

-- Definer functions that must write guarded columns say so for their transaction.
create function public.guard_bypassed() returns boolean
language sql stable as $$
  select coalesce(current_setting('app.guard_bypass', true), '') = 'on'
$$;

-- The changed columns of a row, minus an allow-list and the generated columns.
create function public.changed_columns(p_old jsonb, p_new jsonb, p_allowed text[]) returns text[]
language sql immutable as $$
  select coalesce(array_agg(k order by k), '{}')
  from jsonb_object_keys(p_new) k
  where not (k = any (p_allowed))
    and (p_old -> k) is distinct from (p_new -> k)
$$;

create function public.profiles_owner_guard() returns trigger
language plpgsql as $$
declare
  v_changed text[];
begin
  if (select auth.uid()) is null or public.guard_bypassed() or public.current_user_is_staff() then
    return new;
  end if;
  v_changed := public.changed_columns(to_jsonb(old), to_jsonb(new),
    array['first_name', 'last_name', 'full_name', 'avatar_url', 'updated_at']);
  if cardinality(v_changed) > 0 then
    raise exception 'profiles: you may not change %', array_to_string(v_changed, ', ')
      using errcode = '42501';
  end if;
  return new;
end $$;

create trigger profiles_guard before update on public.profiles
  for each row execute function public.profiles_owner_guard();

alter table public.profiles enable row level security;

create policy profiles_read on public.profiles for select to authenticated
  using (id = (select auth.uid()) or public.current_user_is_staff());

create policy profiles_update on public.profiles for update to authenticated
  using (id = (select auth.uid()) or public.is_admin())
  with check (id = (select auth.uid()) or public.is_admin());

grant select on public.profiles to authenticated;
-- Column grants: id, email and created_at are never written through the API.
grant update (first_name, last_name, role, department, permissions, managed_permissions,
  avatar_url, updated_at) on public.profiles to authenticated;
grant all on public.profiles to service_role;

grant execute on function public.guard_bypassed(), public.changed_columns(jsonb, jsonb, text[]),
  public.touch_updated_at() to anon, authenticated;

-- ---------------------------------------------------------------- audit

create table public.audit_log (
  id bigint generated always as identity primary key,
  table_name text not null,
  row_id text not null,
  action text not null check (action in ('INSERT', 'UPDATE', 'DELETE')),
  actor uuid default auth.uid(),
  at timestamptz not null default now(),
  old_row jsonb,
  new_row jsonb
);
alter table public.audit_log enable row level security;
create policy audit_admin_read on public.audit_log for select to authenticated
  using (public.is_admin());
grant select on public.audit_log to authenticated;
grant all on public.audit_log to service_role;

create function public.write_audit() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.audit_log (table_name, row_id, action, old_row, new_row)
  values (tg_table_name,
          coalesce((to_jsonb(new) ->> 'id'), (to_jsonb(old) ->> 'id')),
          tg_op,
          case when tg_op <> 'INSERT' then to_jsonb(old) end,
          case when tg_op <> 'DELETE' then to_jsonb(new) end);
  return coalesce(new, old);
end $$;
