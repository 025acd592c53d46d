-- Foundation: schemas, extensions, domains, enums, the member (person) table and the helpers
-- every policy calls.

create extension if not exists btree_gist;
create extension if not exists pgcrypto;

create schema if not exists app;
create schema if not exists api;

revoke all on schema app from public;
grant usage on schema app to anon, authenticated, service_role;
grant usage on schema api to anon, authenticated, service_role;

-- As Supabase's guide to custom schemas sets it up: everything made in api is the API roles'.
alter default privileges in schema api grant all on tables to anon, authenticated, service_role;
alter default privileges in schema api grant all on routines to anon, authenticated, service_role;
alter default privileges in schema api grant all on sequences to anon, authenticated, service_role;

-- Domains ---------------------------------------------------------------------------------------

create domain app.email_address as text
  check (value = lower(value) and value ~ '^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$');

create domain app.slug as text
  check (value ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(value) <= 64);

create domain app.dept_code as text
  check (value ~ '^[A-Z]{2,6}$');

create domain app.money as numeric(12, 2)
  check (value >= 0);

create domain app.permission_list as text[]
  check (value <@ array['vs', 'pr', 'house', 'master']::text[]);

create type app.member_role as enum
  ('user', 'dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'sa_prof', 'admin');

-- Members: one row per signed-up person; every person column in the app references it. --------

create table app.members (
  id uuid primary key references auth.users (id) on delete cascade,
  email app.email_address not null unique,
  handle app.slug not null unique,
  display_name text not null,
  role app.member_role not null default 'user',
  department app.dept_code,
  permissions app.permission_list not null default '{}',
  managed_permissions app.permission_list not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- handle and display_name are NOT NULL without defaults: the insert trigger derives them.
create function app.members_fill() returns trigger
language plpgsql as $$
declare
  base text;
begin
  new.email := lower(new.email);
  if new.display_name is null or btrim(new.display_name) = '' then
    new.display_name := split_part(new.email, '@', 1);
  end if;
  if new.handle is null then
    base := trim(both '-' from regexp_replace(lower(split_part(new.email, '@', 1)), '[^a-z0-9]+', '-', 'g'));
    if base = '' then
      base := 'member';
    end if;
    new.handle := base || '-' || substr(replace(new.id::text, '-', ''), 1, 6);
  end if;
  return new;
end;
$$;

create trigger members_fill before insert on app.members
  for each row execute function app.members_fill();

create function app.touch_updated_at() returns trigger
language plpgsql as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

create trigger members_touch before update on app.members
  for each row execute function app.touch_updated_at();

-- Sign-up: every auth user becomes a member.
create function app.handle_new_auth_user() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into app.members (id, email, display_name)
  values (new.id, new.email, new.raw_user_meta_data ->> 'display_name')
  on conflict (id) do nothing;
  return new;
end;
$$;

create trigger on_auth_user_created after insert on auth.users
  for each row execute function app.handle_new_auth_user();

-- Helpers the policies call (definer: they read members without its row rules). ---------------

create function api.current_user_role() returns text
language sql stable security definer set search_path = '' as $$
  select m.role::text from app.members m where m.id = auth.uid()
$$;

create function api.current_user_dept() returns text
language sql stable security definer set search_path = '' as $$
  select m.department::text from app.members m where m.id = auth.uid()
$$;

create function api.current_user_is_staff() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select m.role in ('dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'admin')
       from app.members m where m.id = auth.uid()),
    false)
$$;

create function api.current_user_is_admin() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select m.role in ('dev', 'admin') from app.members m where m.id = auth.uid()),
    false)
$$;

create function api.current_user_has_permission(p_permission text) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select p_permission = any (m.permissions::text[] || m.managed_permissions::text[])
       from app.members m where m.id = auth.uid()),
    false)
$$;

create function api.current_user_is_project_actor() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(
    (select m.role in ('dev', 'admin', 'staff', 'uni_staff', 'sa_prof')
       from app.members m where m.id = auth.uid()),
    false)
$$;

create function api.my_person_id() returns uuid
language sql stable security definer set search_path = '' as $$
  select m.id from app.members m where m.id = auth.uid()
$$;

-- Who handles a VS ticket of a department: developers and admins everywhere, a VP admin in their
-- own department, VS staff and holders of the vs permission everywhere.
create function api.can_handle_vs(p_dept text) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(
    case api.current_user_role()
      when 'dev' then true
      when 'admin' then true
      when 'vp_admin' then p_dept is not null and p_dept = api.current_user_dept()
      when 'vs_staff' then true
      else api.current_user_has_permission('vs')
    end,
    false)
$$;

create function api.can_handle_pr() returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce(
    api.current_user_role() in ('dev', 'admin', 'pr_staff') or api.current_user_has_permission('pr'),
    false)
$$;

-- Rule 1/2: an owner may change only display_name on their own row. The guard copies the allowed
-- columns from OLD into a copy of NEW and compares whole rows, so a new column is guarded.
create function app.members_guard() returns trigger
language plpgsql as $$
declare
  candidate app.members;
begin
  if auth.uid() is null or old.id is distinct from auth.uid() or api.current_user_is_staff() then
    return new;
  end if;
  candidate := new;
  candidate.display_name := old.display_name;
  candidate.updated_at := old.updated_at;
  if candidate is distinct from old then
    raise exception 'members: only display_name may be changed on your own row'
      using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger members_guard before update on app.members
  for each row execute function app.members_guard();

alter table app.members enable row level security;

create policy members_read_self on app.members for select to authenticated
  using (id = auth.uid() or api.current_user_is_staff());
create policy members_update_self on app.members for update to authenticated
  using (id = auth.uid() or api.current_user_is_admin())
  with check (id = auth.uid() or api.current_user_is_admin());

grant select, update on app.members to authenticated;
grant all on app.members to service_role;
