-- Orbit Desk: organisations, their members, and the claims every access token carries.
create extension if not exists citext with schema extensions;

create schema if not exists app;
grant usage on schema app to anon, authenticated, service_role;

create type public.app_role as enum (
  'user', 'dev', 'admin', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'sa_prof'
);

create table public.orgs (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique check (slug ~ '^[a-z][a-z0-9-]{1,30}$'),
  name text not null check (char_length(name) between 2 and 120),
  created_at timestamptz not null default now()
);

-- The pilot organisation every self-service sign-up joins until invitations say otherwise.
insert into public.orgs (slug, name) values ('kku', 'Khon Kaen University');

create table public.users (
  id uuid primary key references auth.users (id) on delete cascade,
  org_id uuid not null references public.orgs (id),
  email extensions.citext unique
    check (email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'),
  display_name text check (char_length(display_name) <= 80),
  avatar_url text check (avatar_url ~ '^https://'),
  department text check (department ~ '^[A-Z]{2,6}$'),
  roles public.app_role[] not null default '{user}' check (cardinality(roles) >= 1),
  permissions text[] not null default '{}'
    check (permissions <@ array['vs', 'pr', 'house', 'master']),
  managed_permissions text[] not null default '{}'
    check (managed_permissions <@ array['vs', 'pr', 'house', 'master']),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index users_org_idx on public.users (org_id);

-- ---------------------------------------------------------------------------------------------
-- Claims. The hook runs as supabase_auth_admin each time a token is issued.
-- ---------------------------------------------------------------------------------------------
create or replace function public.custom_access_token_hook(event jsonb)
returns jsonb
language plpgsql
stable
as $$
declare
  claims jsonb := coalesce(event -> 'claims', '{}'::jsonb);
  member public.users%rowtype;
begin
  select * into member from public.users where id = (event ->> 'user_id')::uuid;

  if not found then
    claims := claims - 'user_role' - 'user_roles' - 'user_dept' - 'user_permissions';
    return jsonb_set(event, '{claims}', claims);
  end if;

  claims := jsonb_set(claims, '{app_metadata}',
    coalesce(claims -> 'app_metadata', '{}'::jsonb) || jsonb_build_object('org_id', member.org_id));
  claims := claims
    || jsonb_build_object(
         'user_role', member.roles[1],
         'user_roles', to_jsonb(member.roles),
         'user_dept', member.department,
         'user_permissions', to_jsonb(array(
            select distinct p from unnest(member.permissions || member.managed_permissions) p order by p)));
  return jsonb_set(event, '{claims}', claims);
end;
$$;

grant usage on schema public to supabase_auth_admin;
grant execute on function public.custom_access_token_hook(jsonb) to supabase_auth_admin;
revoke execute on function public.custom_access_token_hook(jsonb) from authenticated, anon, public;
grant select on table public.users to supabase_auth_admin;

-- ---------------------------------------------------------------------------------------------
-- Claim readers. Policies call these wrapped in (select …) so they run once per statement.
-- ---------------------------------------------------------------------------------------------
create or replace function app.jwt_org_id()
returns uuid
language sql
stable
set search_path = ''
as $$
  select nullif((select auth.jwt()) -> 'app_metadata' ->> 'org_id', '')::uuid
$$;

create or replace function app.jwt_roles()
returns public.app_role[]
language sql
stable
set search_path = ''
as $$
  select coalesce(
    array(select jsonb_array_elements_text((select auth.jwt()) -> 'user_roles'))::public.app_role[],
    '{}')
$$;

create or replace function app.has_role(variadic wanted public.app_role[])
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(app.jwt_roles() && wanted, false)
$$;

create or replace function app.is_admin()
returns boolean
language sql
stable
set search_path = ''
as $$
  select app.has_role('admin', 'dev')
$$;

create or replace function public.current_user_role()
returns public.app_role
language sql
stable
set search_path = ''
as $$
  select nullif((select auth.jwt()) ->> 'user_role', '')::public.app_role
$$;

create or replace function public.current_user_dept()
returns text
language sql
stable
set search_path = ''
as $$
  select nullif((select auth.jwt()) ->> 'user_dept', '')
$$;

create or replace function public.current_user_is_staff()
returns boolean
language sql
stable
set search_path = ''
as $$
  select app.has_role('staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'admin', 'dev')
$$;

create or replace function public.current_user_has_permission(p_permission text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(
    p_permission in (select jsonb_array_elements_text((select auth.jwt()) -> 'user_permissions')),
    false)
$$;

create or replace function public.current_user_is_project_actor()
returns boolean
language sql
stable
set search_path = ''
as $$
  select app.has_role('staff', 'uni_staff', 'sa_prof', 'admin', 'dev')
      or public.current_user_has_permission('master')
$$;

grant execute on function
  public.current_user_role(), public.current_user_dept(), public.current_user_is_staff(),
  public.current_user_has_permission(text), public.current_user_is_project_actor()
  to anon, authenticated;
grant execute on all functions in schema app to anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Shared trigger functions.
-- ---------------------------------------------------------------------------------------------
create or replace function app.touch_updated_at()
returns trigger
language plpgsql
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

-- True for requests coming through the API as a signed-in person; false for migrations, the
-- dashboard, service tools and our own definer functions.
create or replace function app.is_api_caller()
returns boolean
language sql
stable
set search_path = ''
as $$
  select (select auth.uid()) is not null and current_user in ('anon', 'authenticated')
$$;

-- ---------------------------------------------------------------------------------------------
-- Sign-up: every new auth user gets a member row in the org named by the invitation, else the pilot org.
-- ---------------------------------------------------------------------------------------------
create or replace function app.handle_new_auth_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.users (id, org_id, email, display_name)
  values (
    new.id,
    coalesce(
      nullif(new.raw_app_meta_data ->> 'org_id', '')::uuid,
      (select o.id from public.orgs o where o.slug = 'kku')),
    new.email,
    left(coalesce(new.raw_user_meta_data ->> 'full_name', split_part(new.email, '@', 1)), 80))
  on conflict (id) do nothing;
  return new;
end;
$$;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function app.handle_new_auth_user();

-- ---------------------------------------------------------------------------------------------
-- users: own row, staff of the same org, admins. Only display fields are the member's to change.
-- ---------------------------------------------------------------------------------------------
create or replace function app.guard_user_row()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if not app.is_api_caller() or app.is_admin() then
    return new;
  end if;
  if (to_jsonb(new) - array['display_name', 'avatar_url', 'updated_at'])
     is distinct from (to_jsonb(old) - array['display_name', 'avatar_url', 'updated_at']) then
    raise exception 'only display_name and avatar_url can be changed on your profile'
      using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger users_guard before update on public.users
  for each row execute function app.guard_user_row();
create trigger users_touch before update on public.users
  for each row execute function app.touch_updated_at();

alter table public.users enable row level security;

create policy "tenant isolation" on public.users
  as restrictive for all to authenticated
  using (org_id = (select app.jwt_org_id()))
  with check (org_id = (select app.jwt_org_id()));

create policy "read own profile" on public.users
  for select to authenticated
  using (id = (select auth.uid()));

create policy "staff read members" on public.users
  for select to authenticated
  using ((select public.current_user_is_staff()));

create policy "update own profile" on public.users
  for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

create policy "admins manage members" on public.users
  for all to authenticated
  using ((select app.is_admin()))
  with check ((select app.is_admin()));

create policy "auth admin reads members for claims" on public.users
  for select to supabase_auth_admin
  using (true);

grant select, update on public.users to authenticated;
grant all on public.users to service_role;
revoke all on public.users from anon;

alter table public.orgs enable row level security;
create policy "members read their org" on public.orgs
  for select to authenticated
  using (id = (select app.jwt_org_id()));
grant select on public.orgs to authenticated;
revoke all on public.orgs from anon;
