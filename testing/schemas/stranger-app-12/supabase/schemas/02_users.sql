-- Departments and the application's users.

create table public.departments (
  code       text primary key,
  name       text not null,
  constraint departments_code_format check (code ~ '^[A-Z]{2,8}$'),
  constraint departments_name_not_blank check (btrim(name) <> '')
);

insert into public.departments (code, name) values
  ('SE', 'Student Engagement'), ('IT', 'Information Technology'),
  ('FIN', 'Finance'), ('REG', 'Registrar');

alter table public.departments enable row level security;

create policy "departments are public"
  on public.departments for select to anon, authenticated using (true);

create table public.users (
  id                  uuid primary key references auth.users (id) on delete cascade,
  email               extensions.citext not null,
  display_name        text not null default '',
  role                public.app_role not null default 'user',
  department          text references public.departments (code)
                        on update cascade on delete restrict
                        deferrable initially deferred,
  permissions         public.app_permission[] not null default '{}',
  managed_permissions public.app_permission[] not null default '{}',
  created_at          timestamptz not null default now(),
  updated_at          timestamptz not null default now(),
  constraint users_email_unique unique (email),
  constraint users_email_format check (email ~ '^[^@\s]+@[^@\s]+$'),
  constraint users_display_name_length check (char_length(display_name) <= 80),
  -- Handlers and dept-scoped admins must belong to a department.
  constraint users_scoped_role_has_department
    check (role not in ('vs_staff', 'vp_admin') or department is not null)
);

alter table public.users enable row level security;

-- Creates the application row at sign-up.
create or replace function public.handle_new_auth_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.users (id, email, display_name)
  values (
    new.id,
    coalesce(new.email, new.id::text || '@invalid.local'),
    coalesce(new.raw_user_meta_data ->> 'display_name', '')
  )
  on conflict (id) do nothing;
  return new;
end;
$$;

create or replace trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.handle_new_auth_user();

-- updated_at, shared by every table that has one.
create or replace function public.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

create or replace trigger users_touch_updated_at
  before update on public.users
  for each row execute function public.touch_updated_at();

-- Helpers the policies call. Definer so that a policy never depends on users' own rules (rule 17).

create or replace function public.current_user_role()
returns public.app_role
language sql
stable
security definer
set search_path = ''
as $$
  select u.role from public.users u where u.id = auth.uid();
$$;

create or replace function public.current_user_dept()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select u.department from public.users u where u.id = auth.uid();
$$;

create or replace function public.current_user_is_staff()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select u.role in ('dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'admin')
       from public.users u where u.id = auth.uid()),
    false);
$$;

create or replace function public.current_user_is_admin()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select u.role in ('dev', 'vp_admin', 'admin') from public.users u where u.id = auth.uid()),
    false);
$$;

create or replace function public.current_user_has_permission(p_permission public.app_permission)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select p_permission = any (u.permissions || u.managed_permissions)
       from public.users u where u.id = auth.uid()),
    false);
$$;

-- A VS handler for a department: global handlers see all, vp_admin only their own (rule 9).
create or replace function public.current_user_can_handle_vs(p_dept text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select case
              when u.role in ('dev', 'admin') then true
              when u.role = 'vs_staff' then true
              when u.role = 'vp_admin' then p_dept is not null and p_dept = u.department
              else false
            end
       from public.users u where u.id = auth.uid()),
    false);
$$;

create or replace function public.current_user_is_project_actor()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select u.role in ('dev', 'admin', 'uni_staff', 'sa_prof') from public.users u where u.id = auth.uid()),
    false);
$$;

-- Rule 1: the owner guard. Whole row minus an allow-list; server contexts pass.
create or replace function public.users_guard_owner_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  allowed constant text[] := array['display_name', 'updated_at'];
begin
  if auth.uid() is null or current_user not in ('anon', 'authenticated') then
    return new;
  end if;
  if public.current_user_is_admin() then
    return new;
  end if;
  if (to_jsonb(new) - allowed) is distinct from (to_jsonb(old) - allowed) then
    raise exception 'users: only display_name may be changed by its owner'
      using errcode = '42501';
  end if;
  return new;
end;
$$;

create or replace trigger users_guard_owner_update
  before update on public.users
  for each row execute function public.users_guard_owner_update();

create policy "users read themselves"
  on public.users for select to authenticated
  using (id = (select auth.uid()));

create policy "staff read users"
  on public.users for select to authenticated
  using ((select public.current_user_is_staff()));

create policy "users update themselves"
  on public.users for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

create policy "admins update users"
  on public.users for update to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));
