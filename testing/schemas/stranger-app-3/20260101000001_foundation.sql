-- Foundation: extensions, schemas, domains and the definer helpers every policy uses.
-- Choices of this team: citext e-mail domains, moddatetime for updated_at, helpers that are not
-- part of the API live in schema `private` (never exposed), roles/permissions on public.users.

create extension if not exists citext with schema extensions;
create extension if not exists moddatetime with schema extensions;

create schema if not exists private;
revoke all on schema private from public, anon, authenticated;

create domain public.email_address as extensions.citext
  check (value ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$');
create domain public.phone_number as text
  check (value ~ '^\+?[0-9][0-9 -]{5,19}$');

-- ---------------------------------------------------------------------------------------------
-- users: one row per signed-in person, keyed by the auth user. The app inserts it on first login.
create table public.users (
  id uuid primary key references auth.users (id) on delete cascade,
  email public.email_address not null,
  display_name text not null default '',
  role text not null default 'user'
    check (role in ('user', 'dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'sa_prof')),
  department text check (department is null or department ~ '^[A-Z]{2,6}$'),
  permissions text[] not null default '{}',
  managed_permissions text[] not null default '{}',
  phone public.phone_number,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index users_email_lower_key on public.users (lower(email::text));

create trigger users_updated_at before update on public.users
  for each row execute function extensions.moddatetime(updated_at);

-- ---------------------------------------------------------------------------------------------
-- Helpers read the caller's own users row as definer, so no policy depends on users' row rules.
create function public.current_user_role() returns text
language sql stable security definer set search_path = ''
as $$ select u.role from public.users u where u.id = auth.uid() $$;

create function public.current_user_dept() returns text
language sql stable security definer set search_path = ''
as $$ select u.department from public.users u where u.id = auth.uid() $$;

create function public.current_user_is_staff() returns boolean
language sql stable security definer set search_path = ''
as $$
  select coalesce((select u.role in ('dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff')
                   from public.users u where u.id = auth.uid()), false)
$$;

create function public.current_user_has_permission(p_permission text) returns boolean
language sql stable security definer set search_path = ''
as $$
  select coalesce((select p_permission = any (u.permissions || u.managed_permissions)
                   from public.users u where u.id = auth.uid()), false)
$$;

create function private.is_admin() returns boolean
language sql stable security definer set search_path = ''
as $$ select coalesce(public.current_user_role() in ('dev', 'vp_admin'), false) $$;

-- VS handling: vs_staff/staff/dev handle every department; a vp_admin or a holder of the `vs`
-- permission handles their own department only. Unknown (null) values deny.
create function private.can_handle_vs(p_dept text) returns boolean
language sql stable security definer set search_path = ''
as $$
  select case
    when public.current_user_role() in ('dev', 'staff', 'vs_staff') then true
    when public.current_user_role() = 'vp_admin' or public.current_user_has_permission('vs')
      then coalesce(p_dept is not null and p_dept = public.current_user_dept(), false)
    else false
  end
$$;

create function private.can_handle_pr() returns boolean
language sql stable security definer set search_path = ''
as $$
  select coalesce(public.current_user_role() in ('dev', 'staff', 'pr_staff'), false)
      or public.current_user_has_permission('pr')
$$;

create function private.can_manage_shop() returns boolean
language sql stable security definer set search_path = ''
as $$ select coalesce(public.current_user_role() in ('dev', 'staff'), false) $$;

create function private.can_manage_students() returns boolean
language sql stable security definer set search_path = ''
as $$ select coalesce(public.current_user_role() in ('dev', 'uni_staff'), false) $$;

-- A definer function that writes on the caller's behalf (sync, soft delete) marks its
-- transaction; the guards let that write through. No API caller can set it: set_config is not
-- in an exposed schema.
create function private.trusted_write() returns boolean
language sql stable set search_path = ''
as $$ select coalesce(current_setting('app.trusted_write', true), '') = 'on' $$;

-- private helpers: named grants only (rule 15). Policies run as the caller, so the caller roles
-- need EXECUTE on the ones used in policies; the schema's USAGE is what they lack otherwise.
grant usage on schema private to anon, authenticated;
revoke execute on all functions in schema private from public, anon, authenticated;
grant execute on function private.is_admin(), private.can_handle_vs(text), private.can_handle_pr(),
  private.can_manage_shop(), private.can_manage_students() to anon, authenticated;

grant select, insert, update on public.users to authenticated;
grant select, insert, update, delete on public.users to service_role;
revoke all on public.users from anon;

alter table public.users enable row level security;

create policy users_select on public.users for select to authenticated
  using (id = (select auth.uid()) or public.current_user_is_staff());
create policy users_insert_self on public.users for insert to authenticated
  with check (id = (select auth.uid()) and role = 'user'
              and permissions = '{}' and managed_permissions = '{}');
create policy users_update on public.users for update to authenticated
  using (id = (select auth.uid()) or private.is_admin())
  with check (id = (select auth.uid()) or private.is_admin());

-- Owner guard (rules 1, 2): the whole row minus an allow-list; admins and server contexts pass.
create function private.guard_users() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  allowed constant text[] := array['display_name', 'phone', 'updated_at'];
begin
  if auth.uid() is null or private.is_admin() or private.trusted_write() then
    return new;
  end if;
  if (to_jsonb(new) - allowed) is distinct from (to_jsonb(old) - allowed) then
    raise exception 'users: only % may be changed on your own row', allowed
      using errcode = '42501';
  end if;
  return new;
end $$;
create trigger users_guard before update on public.users
  for each row execute function private.guard_users();
