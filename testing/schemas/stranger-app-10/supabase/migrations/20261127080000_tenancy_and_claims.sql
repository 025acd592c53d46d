-- Campus desk: orgs (tenants), users, and the JWT claims every policy reads.
--
-- Design notes
--  * Role, department, org and effective permissions live in public.users (source of truth) and
--    are mirrored into auth.users.raw_app_meta_data by a trigger, so GoTrue puts them in the
--    token's `app_metadata` claim. Policies read the claim, never the table: no per-row lookups,
--    no recursion through users' own policies (rule 17), and the advisor is happy.
--  * Every tenant table carries org_id; a RESTRICTIVE policy per table pins it to the caller's
--    org claim, PERMISSIVE policies per role grant the rest.
--  * Every policy is `to authenticated` (or `to anon` explicitly) and calls helpers as
--    `(select fn())` so they are evaluated once per statement.

create extension if not exists citext with schema extensions;

create schema if not exists private;
revoke all on schema private from public, anon, authenticated;

-- ---------------------------------------------------------------- types
create type public.app_role as enum (
  'user', 'dev', 'admin', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'sa_prof'
);
create type public.app_permission as enum ('vs', 'pr', 'house', 'master');

create domain public.dept_code as text
  check (value ~ '^[A-Z]{2,8}$');

create domain public.kku_email as extensions.citext
  check (value ~ '^[^@\s]+@(kkumail\.com|kku\.ac\.th)$');

-- ---------------------------------------------------------------- tenants
create table public.orgs (
  id         uuid primary key default gen_random_uuid(),
  slug       extensions.citext not null unique check (slug ~ '^[a-z0-9-]{2,40}$'),
  name       text not null,
  created_at timestamptz not null default now()
);

-- ---------------------------------------------------------------- users
create table public.users (
  id                  uuid primary key references auth.users (id) on delete cascade,
  org_id              uuid not null references public.orgs (id),
  email               extensions.citext not null unique,
  display_name        text not null default '',
  avatar_url          text,
  phone               text check (phone is null or phone ~ '^\+?[0-9 -]{6,20}$'),
  role                public.app_role not null default 'user',
  department          public.dept_code,
  permissions         public.app_permission[] not null default '{}',
  managed_permissions public.app_permission[] not null default '{}',
  created_at          timestamptz not null default now(),
  updated_at          timestamptz not null default now()
);
create index users_org_idx on public.users (org_id);

-- ---------------------------------------------------------------- claims helpers
-- All read the token; none touches a table, so none needs SECURITY DEFINER.
create or replace function private.app_claim(p_key text)
returns text
language sql stable
set search_path = ''
as $$
  select nullif(auth.jwt() -> 'app_metadata' ->> p_key, '')
$$;

create or replace function private.jwt_org_id()
returns uuid
language plpgsql stable
set search_path = ''
as $$
declare v text := private.app_claim('org_id');
begin
  if v is null or v !~* '^[0-9a-f-]{36}$' then
    return null;
  end if;
  return v::uuid;
end;
$$;

-- Spec helpers (section 4.2): callable by anon and authenticated.
create or replace function public.current_user_role()
returns public.app_role
language plpgsql stable
set search_path = ''
as $$
declare v text := private.app_claim('role');
begin
  if (select auth.uid()) is null or v is null then
    return null;
  end if;
  -- An unknown role string in a stale token resolves to no role (fails closed).
  if not v = any (enum_range(null::public.app_role)::text[]) then
    return null;
  end if;
  return v::public.app_role;
end;
$$;

create or replace function public.current_user_dept()
returns text
language sql stable
set search_path = ''
as $$
  select case when (select auth.uid()) is null then null else private.app_claim('dept') end
$$;

create or replace function public.current_user_is_staff()
returns boolean
language sql stable
set search_path = ''
as $$
  select coalesce(public.current_user_role() in
    ('dev', 'admin', 'staff', 'pr_staff', 'vs_staff', 'vp_admin'), false)
$$;

create or replace function private.is_admin()
returns boolean
language sql stable
set search_path = ''
as $$
  select coalesce(public.current_user_role() in ('dev', 'admin'), false)
$$;

create or replace function public.current_user_has_permission(p_permission text)
returns boolean
language sql stable
set search_path = ''
as $$
  select (select auth.uid()) is not null
     and coalesce((auth.jwt() -> 'app_metadata' -> 'perms') ? p_permission, false)
$$;

-- VS handling: global handlers, or a vp_admin scoped to their own department.
create or replace function private.can_handle_vs(p_dept text)
returns boolean
language sql stable
set search_path = ''
as $$
  select case
    when public.current_user_role() in ('dev', 'admin', 'staff', 'vs_staff') then true
    when public.current_user_has_permission('vs') then true
    when public.current_user_role() = 'vp_admin'
      then p_dept is not null and p_dept = public.current_user_dept()
    else false
  end
$$;

create or replace function private.can_handle_pr()
returns boolean
language sql stable
set search_path = ''
as $$
  select coalesce(public.current_user_role() in ('dev', 'admin', 'staff', 'pr_staff'), false)
      or public.current_user_has_permission('pr')
$$;

create or replace function private.can_handle_shop()
returns boolean
language sql stable
set search_path = ''
as $$
  select coalesce(public.current_user_role() in ('dev', 'admin', 'staff'), false)
      or public.current_user_has_permission('master')
$$;

grant usage on schema private to anon, authenticated;
revoke execute on all functions in schema private from public, anon, authenticated;
grant execute on function private.app_claim(text), private.jwt_org_id(), private.is_admin(),
  private.can_handle_vs(text), private.can_handle_pr(), private.can_handle_shop()
  to anon, authenticated;
grant execute on function public.current_user_role(), public.current_user_dept(),
  public.current_user_is_staff(), public.current_user_has_permission(text)
  to anon, authenticated;

-- ---------------------------------------------------------------- updated_at
create or replace function private.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

create trigger users_touch before update on public.users
  for each row execute function private.touch_updated_at();

-- ---------------------------------------------------------------- claims sync
-- Mirrors the privileged columns into raw_app_meta_data; GoTrue copies that into the token's
-- app_metadata on the next refresh.
create or replace function private.sync_user_claims()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update auth.users
     set raw_app_meta_data = coalesce(raw_app_meta_data, '{}'::jsonb) || jsonb_build_object(
           'org_id', new.org_id,
           'role',   new.role,
           'dept',   new.department,
           'perms',  to_jsonb(array(select distinct p::text
                                      from unnest(new.permissions || new.managed_permissions) p)))
   where id = new.id;
  return new;
end;
$$;

create trigger users_sync_claims
  after insert or update of org_id, role, department, permissions, managed_permissions
  on public.users
  for each row execute function private.sync_user_claims();

-- Accounts are created by an org admin through the service role with app_metadata.org_id set.
create or replace function private.handle_new_auth_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.users (id, org_id, email, display_name)
  values (new.id,
          (new.raw_app_meta_data ->> 'org_id')::uuid,
          new.email,
          coalesce(new.raw_user_meta_data ->> 'display_name', split_part(new.email, '@', 1)));
  return new;
end;
$$;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function private.handle_new_auth_user();

-- ---------------------------------------------------------------- privileges
-- Supabase's default privileges hand everything to anon/authenticated; this app grants by hand.
revoke all on all tables in schema public from anon, authenticated;
alter default privileges in schema public revoke all on tables from anon, authenticated;
alter default privileges in schema public revoke execute on functions from public, anon, authenticated;

alter table public.orgs enable row level security;
alter table public.users enable row level security;

grant select on public.orgs to authenticated;
create policy orgs_own on public.orgs for select to authenticated
  using (id = (select private.jwt_org_id()));

-- Column privileges instead of a guard trigger: a member may edit their profile fields only.
-- role, department, permissions, org_id, email: never through the REST API (rules 1 and 2);
-- staff change them with admin_set_user_access(). A new column is not granted, so it is
-- guarded by default.
grant select on public.users to authenticated;
grant update (display_name, avatar_url, phone) on public.users to authenticated;

create policy users_tenant on public.users as restrictive for all to authenticated
  using (org_id = (select private.jwt_org_id()))
  with check (org_id = (select private.jwt_org_id()));

create policy users_select_self on public.users for select to authenticated
  using (id = (select auth.uid()));

create policy users_select_staff on public.users for select to authenticated
  using ((select public.current_user_is_staff()));

create policy users_update_self on public.users for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

create policy users_update_admin on public.users for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

-- Role and access changes by admins of the same org.
create or replace function public.admin_set_user_access(
  p_user uuid,
  p_role public.app_role,
  p_department text default null,
  p_permissions public.app_permission[] default '{}'
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.users
     set role = p_role,
         department = p_department,
         permissions = coalesce(p_permissions, '{}')
   where id = p_user
     and org_id = private.jwt_org_id();
  if not found then
    raise exception 'user not found' using errcode = 'P0002';
  end if;
end;
$$;
revoke execute on function public.admin_set_user_access(uuid, public.app_role, text, public.app_permission[])
  from public, anon;
grant execute on function public.admin_set_user_access(uuid, public.app_role, text, public.app_permission[])
  to authenticated;
