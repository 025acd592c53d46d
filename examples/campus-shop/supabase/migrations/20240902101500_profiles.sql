-- Campus shop: member profiles.
--
-- Written the way a Supabase project usually is: one profile row per auth user, created by a
-- trigger on auth.users (handle_new_user), a student code and a home campus the app needs, and
-- a guard trigger that stops members from promoting themselves.

create type public.campus as enum ('north', 'south', 'online');

create table public.users (
  id uuid not null references auth.users (id) on delete cascade,
  email text not null,
  display_name text,
  avatar_url text,
  phone text,
  -- Required by the app, no default: the signup trigger takes them from the signup metadata.
  student_code text not null,
  home_campus public.campus not null,
  role text default 'user',
  department text,
  permissions text[] not null default array[]::text[],
  managed_permissions text[] not null default array[]::text[],
  joined_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint users_pkey primary key (id),
  constraint users_student_code_key unique (student_code),
  constraint users_role_check check (role in ('user', 'moderator', 'uni_staff', 'dev', 'admin'))
);

comment on column public.users.role is 'user | moderator (shop staff) | uni_staff | dev | admin';

-- Supabase's default privileges grant everything to anon and authenticated: take it back.
revoke all on table public.users from anon, authenticated;
grant select, update on table public.users to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Who is asking. Security definer, so policies never depend on the row rules of users itself.
-- ---------------------------------------------------------------------------------------------
create function public.current_user_role()
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_role text;
begin
  select p.role into v_role from public.users as p where p.id = auth.uid();
  return v_role; -- null without a session, without a profile, or with an unset role
end;
$$;

create function public.current_user_dept()
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_dept text;
begin
  select p.department into v_dept from public.users as p where p.id = auth.uid();
  return v_dept;
end;
$$;

-- Moderators run the shop; devs and admins can do everything moderators can.
create function public.current_user_is_staff()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(public.current_user_role() = any (array['moderator', 'dev', 'admin']), false);
$$;

create function public.current_user_is_admin()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(public.current_user_role() = any (array['admin', 'dev']), false);
$$;

create function public.current_user_has_permission(p_permission text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.users as p
    where p.id = auth.uid()
      and p_permission = any (p.permissions || p.managed_permissions)
  );
$$;

revoke execute on function public.current_user_role() from public, anon, authenticated;
revoke execute on function public.current_user_dept() from public, anon, authenticated;
revoke execute on function public.current_user_is_staff() from public, anon, authenticated;
revoke execute on function public.current_user_is_admin() from public, anon, authenticated;
revoke execute on function public.current_user_has_permission(text) from public, anon, authenticated;
grant execute on function public.current_user_role() to anon, authenticated;
grant execute on function public.current_user_dept() to anon, authenticated;
grant execute on function public.current_user_is_staff() to anon, authenticated;
grant execute on function public.current_user_is_admin() to anon, authenticated;
grant execute on function public.current_user_has_permission(text) to anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Row level security
-- ---------------------------------------------------------------------------------------------
alter table public.users enable row level security;

create policy "Members see their own profile, staff see everyone"
  on public.users for select
  to authenticated
  using ((select auth.uid()) = id or public.current_user_is_staff());

create policy "Members edit their own profile, admins edit anyone"
  on public.users for update
  to authenticated
  using ((select auth.uid()) = id or public.current_user_is_admin())
  with check ((select auth.uid()) = id or public.current_user_is_admin());

-- ---------------------------------------------------------------------------------------------
-- Privileged fields. Written as a deny-list: it names the fields a member must not change on
-- their own profile. Nobody thought of the primary key (a member can re-key their profile onto
-- another auth identity), nor of student_code and home_campus, added with the signup trigger.
-- ---------------------------------------------------------------------------------------------
create function public.protect_profile_fields()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.id = auth.uid() and not public.current_user_is_staff() then
    if new.email is distinct from old.email
       or new.role is distinct from old.role
       or new.department is distinct from old.department
       or new.permissions is distinct from old.permissions
       or new.managed_permissions is distinct from old.managed_permissions then
      raise exception 'You cannot change your own email, role, department or permissions';
    end if;
  end if;
  return new;
end;
$$;

create function public.set_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at = now();
  return new;
end;
$$;

revoke execute on function public.protect_profile_fields() from public, anon, authenticated;
revoke execute on function public.set_updated_at() from public, anon, authenticated;

create trigger protect_profile_fields
  before update on public.users
  for each row execute procedure public.protect_profile_fields();

create trigger set_updated_at
  before update on public.users
  for each row execute procedure public.set_updated_at();

-- ---------------------------------------------------------------------------------------------
-- Signup: every auth user gets a profile row.
-- ---------------------------------------------------------------------------------------------
create function public.handle_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.users (id, email, student_code, home_campus)
  values (
    new.id,
    coalesce(new.email, ''),
    coalesce(new.raw_user_meta_data ->> 'student_code', 'NEW-' || replace(new.id::text, '-', '')),
    coalesce((new.raw_user_meta_data ->> 'campus')::public.campus, 'online')
  );
  return new;
end;
$$;

revoke execute on function public.handle_new_user() from public, anon, authenticated;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute procedure public.handle_new_user();
