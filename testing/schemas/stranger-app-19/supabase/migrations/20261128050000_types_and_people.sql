-- Campus desk, part 1: vocabulary (enums, domains), departments by their code, people.
-- Helpers the policies call live in `private`, which the API does not expose.

create schema if not exists private;
create schema if not exists passport;

create type public.app_role as enum (
  'user', 'dev', 'staff', 'pr_staff', 'vs_staff', 'shop_staff', 'vp_admin', 'uni_staff', 'sa_prof', 'admin'
);
create type public.permission_flag as enum ('vs', 'pr', 'house', 'master');
create type public.vs_status as enum ('open', 'triaged', 'in_progress', 'resolved', 'closed');
create type public.order_status as enum ('pending', 'review', 'slip_mismatch', 'paid', 'shipped', 'cancelled');
create type public.pr_status as enum ('received', 'in_review', 'published', 'declined');
create type public.change_verdict as enum ('pending', 'approved', 'rejected');

-- Department codes are short upper-case words: 'SE', 'CS', 'ADMIN'.
create domain public.dept_code as text check (value ~ '^[A-Z]{2,8}$');
-- Usernames: lower-case handle, also the key of the public profile.
create domain public.username as text check (value ~ '^[a-z][a-z0-9_]{2,31}$');
-- Student numbers: ten digits.
create domain public.student_no as text check (value ~ '^[0-9]{10}$');

create table public.departments (
  code public.dept_code primary key,
  name text not null
);
insert into public.departments (code, name) values
  ('SE', 'Student Experience'), ('CS', 'Computer Science'), ('EE', 'Electrical Engineering'),
  ('ME', 'Mechanical Engineering'), ('ADMIN', 'Administration');

create table public.users (
  id uuid primary key references auth.users (id) on delete cascade,
  username public.username not null unique,
  email text,
  display_name text,
  role public.app_role not null default 'user',
  department public.dept_code references public.departments (code) on update cascade,
  permissions public.permission_flag[] not null default '{}',
  managed_permissions public.permission_flag[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Every sign-up gets a users row; the username is derived from the id so it never collides.
create function private.handle_new_auth_user() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.users (id, username, email, display_name)
  values (
    new.id,
    'u_' || left(replace(new.id::text, '-', ''), 16),
    new.email,
    coalesce(new.raw_user_meta_data ->> 'display_name', split_part(coalesce(new.email, ''), '@', 1))
  );
  return new;
end $$;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function private.handle_new_auth_user();

create function private.touch_updated_at() returns trigger
language plpgsql as $$
begin
  new.updated_at := now();
  return new;
end $$;

create trigger users_touch before update on public.users
  for each row execute function private.touch_updated_at();

-- ---------------------------------------------------------------------------------------------
-- Identity helpers. Definer functions so a policy never depends on users' own row rules (rule 17).
-- ---------------------------------------------------------------------------------------------

create function private.current_role() returns public.app_role
language sql stable security definer set search_path = '' as $$
  select u.role from public.users u where u.id = auth.uid()
$$;

create function private.current_dept() returns text
language sql stable security definer set search_path = '' as $$
  select u.department::text from public.users u where u.id = auth.uid()
$$;

create function private.current_username() returns text
language sql stable security definer set search_path = '' as $$
  select u.username::text from public.users u where u.id = auth.uid()
$$;

create function private.has_permission(p_perm text) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((
    select p_perm = any (array(select unnest(u.permissions || u.managed_permissions)::text))
    from public.users u where u.id = auth.uid()
  ), false)
$$;

create function private.is_staff() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(private.current_role() in
    ('staff', 'pr_staff', 'vs_staff', 'shop_staff', 'vp_admin', 'uni_staff', 'admin'), false)
$$;

create function private.is_admin() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(private.current_role() = 'admin', false) or private.has_permission('master')
$$;

-- Who handles VS tickets of a department. vp_admin and vs_staff are scoped to their own
-- department, staff with the vs permission too; admins see every department.
create function private.can_handle_vs(p_dept text) returns boolean
language sql stable security definer set search_path = '' as $$
  select case
    when auth.uid() is null or private.current_role() is null then false
    when private.is_admin() then true
    when p_dept is null then false
    when private.current_role() in ('vs_staff', 'vp_admin') then p_dept = private.current_dept()
    when private.current_role() = 'staff' and private.has_permission('vs') then p_dept = private.current_dept()
    else false
  end
$$;

create function private.is_vs_handler() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(private.is_admin()
    or private.current_role() in ('vs_staff', 'vp_admin')
    or (private.current_role() = 'staff' and private.has_permission('vs')), false)
$$;

create function private.is_pr_handler() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(private.is_admin()
    or private.current_role() = 'pr_staff'
    or (private.current_role() = 'staff' and private.has_permission('pr')), false)
$$;

create function private.is_shop_handler() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(private.is_admin()
    or private.current_role() = 'shop_staff'
    or (private.is_staff() and private.has_permission('house')), false)
$$;

-- Public faces of the helpers, as the spec lists them (rpc-callable by anon and authenticated).
create function public.current_user_role() returns text
language sql stable security definer set search_path = '' as $$
  select private.current_role()::text
$$;
create function public.current_user_dept() returns text
language sql stable security definer set search_path = '' as $$
  select private.current_dept()
$$;
create function public.current_user_is_staff() returns boolean
language sql stable security definer set search_path = '' as $$
  select private.is_staff()
$$;
create function public.current_user_has_permission(p_permission text) returns boolean
language sql stable security definer set search_path = '' as $$
  select private.has_permission(p_permission)
$$;

-- Owner guard for users (rules 1, 2): everything but display_name is frozen for the owner.
create function private.guard_users_owner() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_allowed text[] := array['display_name', 'updated_at'];
begin
  -- server contexts, and the definer functions that write on the caller's behalf (sync_my_team_permissions)
  if auth.uid() is null or current_setting('campus.trusted_write', true) = 'on' then
    return new;
  end if;
  -- another person's row is edited only under the admin policy; one's own row is guarded unless admin
  if old.id is distinct from auth.uid() or private.is_admin() then
    return new;
  end if;
  if (to_jsonb(new) - v_allowed) is distinct from (to_jsonb(old) - v_allowed) then
    raise exception 'Only display_name may be changed on your own profile' using errcode = '42501';
  end if;
  return new;
end $$;

create trigger users_owner_guard before update on public.users
  for each row execute function private.guard_users_owner();

alter table public.users enable row level security;

create policy users_read_self on public.users for select to authenticated
  using (id = auth.uid());
create policy users_read_staff on public.users for select to authenticated
  using (private.is_staff());
create policy users_update_self on public.users for update to authenticated
  using (id = auth.uid()) with check (id = auth.uid());
create policy users_update_admin on public.users for update to authenticated
  using (private.is_admin()) with check (private.is_admin());

alter table public.departments enable row level security;
create policy departments_read on public.departments for select to anon, authenticated using (true);
