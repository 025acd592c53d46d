-- Campus desk: schemas, role-based access control in tables, and the helpers every policy uses.
--
-- Layout:
--   app      tables (never exposed over REST; reached through the views in api)
--   api      security_invoker views and rpc functions (exposed)
--   private  security definer helpers (never exposed, execute granted by name)
--   audit    append-only change log written by triggers

create extension if not exists pgcrypto with schema extensions;

create schema if not exists app;
create schema if not exists api;
create schema if not exists private;
create schema if not exists audit;
create schema if not exists passport;

-- The API roles need usage on app because the api views run with the caller's rights.
grant usage on schema app to anon, authenticated, service_role;
grant usage on schema api to anon, authenticated, service_role;
grant usage on schema passport to anon, authenticated, service_role;
revoke all on schema private from public;
grant usage on schema private to anon, authenticated, service_role;
revoke all on schema audit from public;

-- Functions created from here on are not executable by everybody unless granted.
alter default privileges in schema api revoke execute on functions from public;
alter default privileges in schema private revoke execute on functions from public;
alter default privileges in schema passport revoke execute on functions from public;

-- ---------------------------------------------------------------------------------------------
-- Shared trigger: keep updated_at honest.
-- ---------------------------------------------------------------------------------------------
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

-- ---------------------------------------------------------------------------------------------
-- Roles and permissions
-- ---------------------------------------------------------------------------------------------
create table app.roles (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique check (slug ~ '^[a-z][a-z_]{1,31}$'),
  description text not null default '' check (char_length(description) <= 200),
  -- A role inherits every permission and every role check of its parent.
  parent_role_id uuid references app.roles (id) on delete restrict,
  -- Highest rank wins when one role has to be named for a user.
  rank integer not null default 0 check (rank between 0 and 1000),
  created_at timestamptz not null default now(),
  check (parent_role_id is distinct from id)
);

create table app.permissions (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique check (slug ~ '^[a-z][a-z_]{1,31}$'),
  description text not null default '' check (char_length(description) <= 200),
  created_at timestamptz not null default now()
);

create table app.role_permissions (
  role_id uuid not null references app.roles (id) on delete cascade,
  permission_id uuid not null references app.permissions (id) on delete cascade,
  primary key (role_id, permission_id)
);

insert into app.permissions (slug, description) values
  ('vs', 'handle VS tickets'),
  ('pr', 'handle PR tickets'),
  ('house', 'handle shop orders'),
  ('master', 'manage the team tree');

insert into app.roles (slug, description, rank) values ('user', 'every signed-up account', 0);
insert into app.roles (slug, description, rank, parent_role_id)
select v.slug, v.description, v.rank, (select id from app.roles where slug = v.parent)
from (values
  ('staff', 'office staff', 30, 'user'),
  ('sa_prof', 'supervising professor', 10, 'user'),
  ('vp_admin', 'vice-president office, one department', 50, 'user')
) as v (slug, description, rank, parent);
insert into app.roles (slug, description, rank, parent_role_id)
select v.slug, v.description, v.rank, (select id from app.roles where slug = v.parent)
from (values
  ('pr_staff', 'public-relations staff', 40, 'staff'),
  ('vs_staff', 'voice-of-students staff, every department', 40, 'staff'),
  ('uni_staff', 'university staff', 20, 'staff'),
  ('admin', 'administrator', 90, 'staff')
) as v (slug, description, rank, parent);
insert into app.roles (slug, description, rank, parent_role_id)
values ('dev', 'developer', 100, (select id from app.roles where slug = 'admin'));

insert into app.role_permissions (role_id, permission_id)
select r.id, p.id
from (values ('vs_staff', 'vs'), ('pr_staff', 'pr'), ('admin', 'vs'), ('admin', 'pr'),
             ('admin', 'house'), ('admin', 'master')) as v (role_slug, perm_slug)
join app.roles r on r.slug = v.role_slug
join app.permissions p on p.slug = v.perm_slug;

-- ---------------------------------------------------------------------------------------------
-- Users (one row per auth.users row, made by the signup trigger)
-- ---------------------------------------------------------------------------------------------
create table app.users (
  id uuid primary key references auth.users (id) on delete cascade,
  email text not null unique
    check (char_length(email) <= 254 and email ~* '^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$'),
  display_name text not null default '' check (char_length(display_name) <= 80),
  department text check (department ~ '^[A-Z]{2,10}$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create trigger users_touch before update on app.users
  for each row execute function private.touch_updated_at();

create table app.user_roles (
  user_id uuid not null references app.users (id) on delete cascade,
  role_id uuid not null references app.roles (id) on delete restrict,
  granted_by uuid references app.users (id) on delete set null,
  granted_at timestamptz not null default now(),
  primary key (user_id, role_id)
);

-- Direct permissions. 'self' ones are granted by an admin; 'managed' ones are kept in sync
-- with the team tree by api.sync_my_team_permissions().
create table app.user_permissions (
  user_id uuid not null references app.users (id) on delete cascade,
  permission_id uuid not null references app.permissions (id) on delete cascade,
  source text not null check (source in ('self', 'managed')),
  granted_at timestamptz not null default now(),
  primary key (user_id, permission_id, source)
);

create or replace function private.handle_new_auth_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_dept text := upper(nullif(btrim(new.raw_user_meta_data ->> 'department'), ''));
begin
  if v_dept is not null and v_dept !~ '^[A-Z]{2,10}$' then
    v_dept := null;
  end if;
  insert into app.users (id, email, display_name, department)
  values (new.id, lower(new.email),
          left(coalesce(new.raw_user_meta_data ->> 'display_name', ''), 80), v_dept);
  insert into app.user_roles (user_id, role_id)
  select new.id, r.id from app.roles r where r.slug = 'user';
  return new;
end;
$$;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function private.handle_new_auth_user();

-- ---------------------------------------------------------------------------------------------
-- Helpers. All security definer with an empty search_path; a null auth.uid() resolves to
-- "no role, no permission, no department" so every caller of them fails closed.
-- ---------------------------------------------------------------------------------------------

-- Every role the user holds, plus every ancestor of those roles.
create or replace function private.role_closure(p_user_id uuid)
returns setof text
language sql
stable
security definer
set search_path = ''
as $$
  with recursive held as (
    select r.id, r.slug, r.parent_role_id
    from app.user_roles ur
    join app.roles r on r.id = ur.role_id
    where ur.user_id = p_user_id
    union
    select p.id, p.slug, p.parent_role_id
    from app.roles p
    join held h on h.parent_role_id = p.id
  )
  select distinct slug from held;
$$;

create or replace function private.has_role(p_role text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select auth.uid()) is not null
    and exists (select 1 from private.role_closure((select auth.uid())) s where s = p_role),
    false);
$$;

create or replace function private.current_user_role()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select r.slug
  from app.user_roles ur
  join app.roles r on r.id = ur.role_id
  where ur.user_id = (select auth.uid())
  order by r.rank desc, r.slug
  limit 1;
$$;

create or replace function private.role_of(p_user_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select r.slug
  from app.user_roles ur
  join app.roles r on r.id = ur.role_id
  where ur.user_id = p_user_id
  order by r.rank desc, r.slug
  limit 1;
$$;

create or replace function private.current_user_dept()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select u.department from app.users u where u.id = (select auth.uid());
$$;

create or replace function private.effective_permissions(p_user_id uuid)
returns setof text
language sql
stable
security definer
set search_path = ''
as $$
  select p.slug
  from app.role_permissions rp
  join app.roles r on r.id = rp.role_id
  join app.permissions p on p.id = rp.permission_id
  where r.slug in (select private.role_closure(p_user_id))
  union
  select p.slug
  from app.user_permissions up
  join app.permissions p on p.id = up.permission_id
  where up.user_id = p_user_id;
$$;

create or replace function private.has_permission(p_permission text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select auth.uid()) is not null
    and exists (select 1 from private.effective_permissions((select auth.uid())) e
                where e = p_permission),
    false);
$$;

create or replace function private.is_staff()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.has_role('staff');
$$;

create or replace function private.is_admin()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.has_role('admin');
$$;

-- VS handling: admins and holders of the vs permission handle every department; a vp_admin
-- handles their own department only. An unknown department is never handled.
create or replace function private.can_handle_vs(p_dept text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    p_dept is not null
    and (private.is_admin()
         or private.has_permission('vs')
         or (private.has_role('vp_admin') and p_dept = private.current_user_dept())),
    false);
$$;

create or replace function private.can_handle_pr()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.is_admin() or private.has_permission('pr');
$$;

create or replace function private.can_handle_shop()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.is_admin() or private.has_permission('house');
$$;

grant execute on function
  private.role_closure(uuid), private.has_role(text), private.current_user_role(),
  private.role_of(uuid), private.current_user_dept(), private.effective_permissions(uuid),
  private.has_permission(text), private.is_staff(), private.is_admin(),
  private.can_handle_vs(text), private.can_handle_pr(), private.can_handle_shop()
  to anon, authenticated, service_role;
revoke execute on function private.handle_new_auth_user() from public, anon, authenticated;
revoke execute on function private.touch_updated_at() from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Audit log
-- ---------------------------------------------------------------------------------------------
create table audit.log (
  id bigint generated always as identity primary key,
  table_name text not null,
  operation text not null check (operation in ('INSERT', 'UPDATE', 'DELETE')),
  row_pk text,
  actor_id uuid,
  actor_role text,
  at timestamptz not null default now(),
  old_row jsonb,
  new_row jsonb
);
revoke all on audit.log from public, anon, authenticated;

create or replace function audit.capture()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_row jsonb := case when tg_op = 'DELETE' then to_jsonb(old) else to_jsonb(new) end;
begin
  insert into audit.log (table_name, operation, row_pk, actor_id, actor_role, old_row, new_row)
  values (tg_table_schema || '.' || tg_table_name, tg_op, v_row ->> 'id', (select auth.uid()),
          private.current_user_role(),
          case when tg_op <> 'INSERT' then to_jsonb(old) end,
          case when tg_op <> 'DELETE' then to_jsonb(new) end);
  return null;
end;
$$;
revoke execute on function audit.capture() from public, anon, authenticated;

create trigger user_roles_audit after insert or update or delete on app.user_roles
  for each row execute function audit.capture();
create trigger user_permissions_audit after insert or update or delete on app.user_permissions
  for each row execute function audit.capture();

-- ---------------------------------------------------------------------------------------------
-- Row security on the RBAC tables
-- ---------------------------------------------------------------------------------------------
alter table app.roles enable row level security;
alter table app.permissions enable row level security;
alter table app.role_permissions enable row level security;
alter table app.users enable row level security;
alter table app.user_roles enable row level security;
alter table app.user_permissions enable row level security;

create policy roles_read on app.roles for select to authenticated using (true);
create policy permissions_read on app.permissions for select to authenticated using (true);
create policy role_permissions_read on app.role_permissions for select to authenticated using (true);
create policy roles_admin_write on app.roles for all to authenticated
  using (private.is_admin()) with check (private.is_admin());
create policy role_permissions_admin_write on app.role_permissions for all to authenticated
  using (private.is_admin()) with check (private.is_admin());

create policy users_read_self_or_staff on app.users for select to authenticated
  using (id = (select auth.uid()) or private.is_staff() or private.has_role('vp_admin'));
create policy users_update_self on app.users for update to authenticated
  using (id = (select auth.uid())) with check (id = (select auth.uid()));
create policy users_update_admin on app.users for update to authenticated
  using (private.is_admin()) with check (private.is_admin());

create policy user_roles_read on app.user_roles for select to authenticated
  using (user_id = (select auth.uid()) or private.is_admin());
create policy user_roles_admin_insert on app.user_roles for insert to authenticated
  with check (private.is_admin());
create policy user_roles_admin_delete on app.user_roles for delete to authenticated
  using (private.is_admin());

create policy user_permissions_read on app.user_permissions for select to authenticated
  using (user_id = (select auth.uid()) or private.is_admin());
create policy user_permissions_admin_insert on app.user_permissions for insert to authenticated
  with check (private.is_admin() and source = 'self');
create policy user_permissions_admin_delete on app.user_permissions for delete to authenticated
  using (private.is_admin() and source = 'self');

grant select on app.roles, app.permissions, app.role_permissions to authenticated;
grant insert, update, delete on app.roles, app.role_permissions to authenticated;
grant select on app.users to authenticated;
grant update (display_name, department) on app.users to authenticated;
grant select, insert, delete on app.user_roles, app.user_permissions to authenticated;
grant all on all tables in schema app to service_role;

-- Owner guard on users: the whole row minus an allow-list. Department is privileged
-- (it scopes vp_admin handling), so only admins change it.
create or replace function private.guard_users_update()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (select auth.uid()) is null or private.is_admin() then
    return new;
  end if;
  if (to_jsonb(new) - array['display_name', 'updated_at'])
     is distinct from (to_jsonb(old) - array['display_name', 'updated_at']) then
    raise exception 'only display_name may be changed on your own account'
      using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger users_guard before update on app.users
  for each row execute function private.guard_users_update();
