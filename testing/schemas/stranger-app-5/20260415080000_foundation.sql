-- Campus desk: foundation. People live in public.profiles, keyed by auth.users(id).
-- Helpers callable by policies are public security-definer functions; helpers that answer
-- questions about other people live in the private schema, executable by no API role.

create extension if not exists citext with schema extensions;
create extension if not exists pgcrypto with schema extensions;

create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to postgres, service_role;

-- Vocabularies as domains, so every table spells them once.
create domain public.app_role as text
  check (value in ('user', 'dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'sa_prof', 'admin'));

create domain public.dept_code as text
  check (value ~ '^[A-Z]{2,6}$');

create domain public.campus_email as extensions.citext
  check (value ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$');

create domain public.permission_set as text[]
  check (value <@ array['vs', 'pr', 'house', 'master']::text[]);

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  email public.campus_email,
  role public.app_role not null default 'user',
  department public.dept_code,
  display_name text check (display_name is null or char_length(display_name) between 1 and 80),
  avatar_url text,
  phone text check (phone is null or phone ~ '^\+?[0-9 ().x-]{4,32}$'),
  permissions public.permission_set not null default '{}',
  managed_permissions public.permission_set not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create unique index profiles_email_key on public.profiles (email) where email is not null;

comment on table public.profiles is 'The application users table (role, department, permissions).';

-- updated_at, set by the server on every update
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

create trigger profiles_touch before update on public.profiles
  for each row execute function private.touch_updated_at();

-- New auth users get a profile.
create or replace function private.handle_new_auth_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.profiles (id, email)
  values (new.id, nullif(new.email, ''))
  on conflict (id) do nothing;
  return new;
end;
$$;

create trigger on_auth_user_created after insert on auth.users
  for each row execute function private.handle_new_auth_user();

-- ---------------------------------------------------------------------------
-- Helpers used by policies (rule 17: lookups through definer helpers)
-- ---------------------------------------------------------------------------

create or replace function public.current_user_role()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select p.role::text from public.profiles p where p.id = (select auth.uid());
$$;

create or replace function public.current_user_dept()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select p.department::text from public.profiles p where p.id = (select auth.uid());
$$;

create or replace function private.role_is_staff(p_role text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(p_role in ('staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'dev', 'admin'), false);
$$;

create or replace function private.role_is_admin(p_role text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(p_role in ('dev', 'admin'), false);
$$;

create or replace function public.current_user_is_staff()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.role_is_staff(public.current_user_role());
$$;

create or replace function public.current_user_is_admin()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.role_is_admin(public.current_user_role());
$$;

create or replace function public.current_user_has_permission(p_permission text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select p_permission = any (p.permissions || p.managed_permissions)
       from public.profiles p
      where p.id = (select auth.uid())
        and p.role is not null),
    false);
$$;

create or replace function public.current_user_is_project_actor()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(public.current_user_role() in ('uni_staff', 'staff', 'dev', 'admin'), false);
$$;

-- ---------------------------------------------------------------------------
-- Rule 1: owners may change only the allow-listed columns of their own row.
-- ---------------------------------------------------------------------------

create or replace function private.guard_profile_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_allowed text[] := array['display_name', 'avatar_url', 'phone', 'updated_at'];
begin
  if v_uid is null or current_user not in ('anon', 'authenticated') then
    return new; -- server context
  end if;
  if old.id = v_uid and not public.current_user_is_admin() then
    if (to_jsonb(new) - v_allowed) is distinct from (to_jsonb(old) - v_allowed) then
      raise exception 'profile: only display_name, avatar_url and phone may be changed by their owner'
        using errcode = 'P0001';
    end if;
  end if;
  return new;
end;
$$;

create trigger profiles_guard before update on public.profiles
  for each row execute function private.guard_profile_update();

alter table public.profiles enable row level security;

create policy "profiles: read own, staff read all" on public.profiles
  for select to authenticated
  using (id = (select auth.uid()) or (select public.current_user_is_staff()));

create policy "profiles: owner updates own" on public.profiles
  for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

create policy "profiles: admins update any" on public.profiles
  for update to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

grant select, update on public.profiles to authenticated;
grant all on public.profiles to service_role;

-- Rule 15: helpers are not for everyone; each role named.
revoke execute on all functions in schema private from public, anon, authenticated;
grant execute on function public.current_user_role(), public.current_user_dept(),
  public.current_user_is_staff(), public.current_user_is_admin(),
  public.current_user_has_permission(text), public.current_user_is_project_actor()
  to anon, authenticated;
