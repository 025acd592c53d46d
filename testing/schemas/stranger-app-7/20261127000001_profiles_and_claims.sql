-- Campus hub: profiles, roles and the access-token hook.
--
-- Roles live on public.profiles (the source of truth, editable by admins only) and are copied
-- into every access token by the custom access token hook, so policies read
-- auth.jwt() ->> 'user_role' instead of querying profiles on every row.

create extension if not exists citext with schema extensions;
create extension if not exists moddatetime with schema extensions;

create type public.app_role as enum (
  'user', 'dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'sa_prof', 'admin'
);

create type public.app_permission as enum ('vs', 'pr', 'house', 'master');

-- ---------------------------------------------------------------------------------------------
-- profiles (the app's "users" table)
-- ---------------------------------------------------------------------------------------------
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  email extensions.citext not null unique,
  display_name text not null default '' check (char_length(display_name) <= 80),
  avatar_url text,
  role public.app_role not null default 'user',
  department text check (department ~ '^[A-Z]{2,6}$'),
  permissions public.app_permission[] not null default '{}',
  managed_permissions public.app_permission[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.profiles is 'One row per auth user, created by handle_new_user().';

create trigger profiles_updated_at
  before update on public.profiles
  for each row execute procedure extensions.moddatetime (updated_at);

-- Signup: every auth.users row gets its profile.
create or replace function public.handle_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.profiles (id, email, display_name)
  values (
    new.id,
    new.email,
    coalesce(new.raw_user_meta_data ->> 'full_name', split_part(new.email, '@', 1))
  );
  return new;
end;
$$;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute procedure public.handle_new_user();

-- ---------------------------------------------------------------------------------------------
-- Custom access token hook (Supabase Auth calls it as supabase_auth_admin on every token).
-- ---------------------------------------------------------------------------------------------
create or replace function public.custom_access_token_hook(event jsonb)
returns jsonb
language plpgsql
stable
as $$
declare
  claims jsonb;
  p record;
begin
  select role, department, permissions, managed_permissions
    into p
    from public.profiles
   where id = (event ->> 'user_id')::uuid;

  claims := coalesce(event -> 'claims', '{}'::jsonb);

  if found then
    claims := jsonb_set(claims, '{user_role}', to_jsonb(p.role));
    claims := jsonb_set(claims, '{user_dept}', coalesce(to_jsonb(p.department), 'null'::jsonb));
    claims := jsonb_set(
      claims,
      '{user_permissions}',
      to_jsonb(array(
        select distinct unnest(p.permissions || p.managed_permissions)::text order by 1
      ))
    );
  else
    claims := jsonb_set(claims, '{user_role}', 'null'::jsonb);
    claims := jsonb_set(claims, '{user_dept}', 'null'::jsonb);
    claims := jsonb_set(claims, '{user_permissions}', '[]'::jsonb);
  end if;

  return jsonb_set(event, '{claims}', claims);
end;
$$;

grant usage on schema public to supabase_auth_admin;
grant execute on function public.custom_access_token_hook to supabase_auth_admin;
revoke execute on function public.custom_access_token_hook from authenticated, anon, public;
grant select on table public.profiles to supabase_auth_admin;

create policy "Auth admin reads profiles for the token hook"
  on public.profiles
  as permissive for select
  to supabase_auth_admin
  using (true);

-- ---------------------------------------------------------------------------------------------
-- Claim helpers. All read the token only, so they need no definer rights. A missing or unknown
-- claim resolves to null / false (denied).
-- ---------------------------------------------------------------------------------------------
create or replace function public.current_user_role()
returns public.app_role
language plpgsql
stable
set search_path = ''
as $$
declare
  r text := auth.jwt() ->> 'user_role';
begin
  if (select auth.uid()) is null or r is null or r = '' then
    return null;
  end if;
  return r::public.app_role;
exception when invalid_text_representation then
  return null;
end;
$$;

create or replace function public.current_user_dept()
returns text
language sql
stable
set search_path = ''
as $$
  select case when (select auth.uid()) is null then null
              else nullif(auth.jwt() ->> 'user_dept', '') end;
$$;

create or replace function public.current_user_is_staff()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(
    public.current_user_role() in ('dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'admin'),
    false
  );
$$;

create or replace function public.current_user_is_admin()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(public.current_user_role() in ('dev', 'admin'), false);
$$;

create or replace function public.current_user_has_permission(requested public.app_permission)
returns boolean
language sql
stable
set search_path = ''
as $$
  select (select auth.uid()) is not null
     and coalesce(auth.jwt() -> 'user_permissions', '[]'::jsonb) ? requested::text;
$$;

-- VS handlers: dev/admin/vs_staff everywhere; vp_admin and holders of the vs permission in their
-- own department only.
create or replace function public.can_handle_vs(dept text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(
    case
      when dept is null then false
      when public.current_user_role() in ('dev', 'admin', 'vs_staff') then true
      when public.current_user_role() = 'vp_admin' then dept = public.current_user_dept()
      when public.current_user_has_permission('vs') then dept = public.current_user_dept()
      else false
    end,
    false
  );
$$;

create or replace function public.can_handle_pr()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(
    public.current_user_role() in ('dev', 'admin', 'staff', 'pr_staff')
      or public.current_user_has_permission('pr'),
    false
  );
$$;

create or replace function public.can_handle_shop()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(
    public.current_user_role() in ('dev', 'admin', 'staff')
      or public.current_user_has_permission('house')
      or public.current_user_has_permission('master'),
    false
  );
$$;

-- ---------------------------------------------------------------------------------------------
-- profiles: row security and the self-edit guard
-- ---------------------------------------------------------------------------------------------
alter table public.profiles enable row level security;

create policy "Users read their own profile"
  on public.profiles for select to authenticated
  using ((select auth.uid()) = id);

create policy "Staff read all profiles"
  on public.profiles for select to authenticated
  using ((select public.current_user_is_staff()));

create policy "Users update their own profile"
  on public.profiles for update to authenticated
  using ((select auth.uid()) = id)
  with check ((select auth.uid()) = id);

create policy "Admins update any profile"
  on public.profiles for update to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

create policy "Admins delete profiles"
  on public.profiles for delete to authenticated
  using ((select public.current_user_is_admin()));

-- Owners may change their display fields only. Role, department and permissions feed the token
-- hook, so even a staff member may not change them on their own row (only admins can).
create or replace function public.guard_profile_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  allowed text[] := array['display_name', 'avatar_url', 'updated_at'];
begin
  if (select auth.uid()) is null or public.current_user_is_admin() then
    return new;
  end if;
  if (to_jsonb(new) - allowed) is distinct from (to_jsonb(old) - allowed) then
    raise exception 'only display_name and avatar_url can be changed on your own profile'
      using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger profiles_guard
  before update on public.profiles
  for each row execute procedure public.guard_profile_update();

grant select, update, delete on table public.profiles to authenticated;
