-- Team tree, projects, student records, identity conflicts and the passport.

-- ---------------------------------------------------------------------------------------------
-- Team tree
-- ---------------------------------------------------------------------------------------------
create table app.team_nodes (
  id uuid primary key default gen_random_uuid(),
  parent_id uuid references app.team_nodes (id) on delete cascade,
  slug text not null check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 48),
  name text not null check (char_length(btrim(name)) between 1 and 120),
  kind text not null check (kind in ('org', 'division', 'team', 'seat')),
  position integer not null default 0 check (position >= 0),
  is_public boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique nulls not distinct (parent_id, slug),
  check (parent_id is distinct from id)
);

create table app.team_members (
  id uuid primary key default gen_random_uuid(),
  node_id uuid not null references app.team_nodes (id) on delete cascade,
  user_id uuid references app.users (id) on delete set null,
  name text not null check (char_length(btrim(name)) between 1 and 120),
  nickname text check (char_length(nickname) <= 40),
  position text check (char_length(position) <= 80),
  kkumail text not null check (kkumail ~ '^[a-z0-9._-]+@kkumail\.com$'),
  student_id text check (student_id ~ '^[0-9]{9}-[0-9]$'),
  year smallint check (year between 1 and 8),
  major text check (char_length(major) <= 120),
  permissions text[] not null default '{}',
  vs_dept text check (vs_dept ~ '^[A-Z]{2,10}$'),
  project_seat text check (char_length(project_seat) <= 40),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (node_id, kkumail)
);

create trigger team_nodes_touch before update on app.team_nodes
  for each row execute function private.touch_updated_at();
create trigger team_members_touch before update on app.team_members
  for each row execute function private.touch_updated_at();

alter table app.team_nodes enable row level security;
alter table app.team_members enable row level security;

create policy team_nodes_read on app.team_nodes for select to authenticated
  using (private.is_staff() or private.has_permission('master'));
create policy team_nodes_write on app.team_nodes for all to authenticated
  using (private.has_permission('master')) with check (private.has_permission('master'));
-- No anon policy on members: the public sees the org chart function only.
create policy team_members_read on app.team_members for select to authenticated
  using (user_id = (select auth.uid()) or private.is_staff() or private.has_permission('master'));
create policy team_members_write on app.team_members for all to authenticated
  using (private.has_permission('master')) with check (private.has_permission('master'));

grant select, insert, update, delete on app.team_nodes, app.team_members to authenticated;

-- Resolvers about another person: private, never executable by the API roles.
create or replace function private.effective_team_permissions_for_email(p_email text)
returns text[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(distinct p order by p), '{}')
  from app.team_members m, unnest(m.permissions) p
  where m.kkumail = lower(btrim(p_email));
$$;

create or replace function private.node_effective_members(p_node_id uuid)
returns setof uuid
language sql
stable
security definer
set search_path = ''
as $$
  with recursive sub as (
    select id from app.team_nodes where id = p_node_id
    union
    select n.id from app.team_nodes n join sub on n.parent_id = sub.id
  )
  select m.user_id from app.team_members m join sub on sub.id = m.node_id
  where m.user_id is not null;
$$;

revoke execute on function private.effective_team_permissions_for_email(text)
  from public, anon, authenticated;
revoke execute on function private.node_effective_members(uuid) from public, anon, authenticated;
grant execute on function private.effective_team_permissions_for_email(text) to service_role;
grant execute on function private.node_effective_members(uuid) to service_role;

-- ---------------------------------------------------------------------------------------------
-- Projects
-- ---------------------------------------------------------------------------------------------
create table app.projects (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 64),
  title text not null check (char_length(btrim(title)) between 1 and 200),
  owner_id uuid not null default auth.uid() references app.users (id) on delete restrict,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table app.project_members (
  project_id uuid not null references app.projects (id) on delete cascade,
  user_id uuid not null references app.users (id) on delete cascade,
  primary key (project_id, user_id)
);

create table app.project_documents (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references app.projects (id) on delete cascade,
  slug text not null check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 64),
  title text not null check (char_length(btrim(title)) between 1 and 200),
  body text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (project_id, slug)
);

create table app.project_files (
  id uuid primary key default gen_random_uuid(),
  document_id uuid not null references app.project_documents (id) on delete cascade,
  storage_path text not null check (storage_path ~ '^projects/[^\s]{1,300}$'),
  uploaded_by uuid not null default auth.uid() references app.users (id) on delete restrict,
  is_signed boolean not null default false,
  created_at timestamptz not null default now()
);

create table app.project_sign_requests (
  id uuid primary key default gen_random_uuid(),
  document_id uuid not null references app.project_documents (id) on delete cascade,
  actor_id uuid not null default auth.uid() references app.users (id) on delete cascade,
  professor_id uuid not null references app.users (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'signed', 'declined')),
  created_at timestamptz not null default now(),
  unique (document_id, professor_id)
);

create table app.project_settings (
  key text primary key check (key ~ '^[a-z][a-z0-9_]{1,63}$'),
  value jsonb not null,
  updated_at timestamptz not null default now()
);

create trigger projects_touch before update on app.projects
  for each row execute function private.touch_updated_at();
create trigger project_documents_touch before update on app.project_documents
  for each row execute function private.touch_updated_at();
create trigger project_settings_touch before update on app.project_settings
  for each row execute function private.touch_updated_at();

create or replace function private.is_project_actor(p_project_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select auth.uid()) is not null and (
    exists (select 1 from app.projects p
            where p.id = p_project_id and p.owner_id = (select auth.uid()))
    or exists (select 1 from app.project_members m
               where m.project_id = p_project_id and m.user_id = (select auth.uid()))), false);
$$;

create or replace function private.project_of_document(p_document_id uuid)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select project_id from app.project_documents where id = p_document_id;
$$;

create or replace function private.is_addressed_professor(p_document_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select auth.uid()) is not null and private.has_role('sa_prof') and exists (
    select 1 from app.project_sign_requests r
    where r.document_id = p_document_id and r.professor_id = (select auth.uid())), false);
$$;

grant execute on function private.is_project_actor(uuid), private.project_of_document(uuid),
  private.is_addressed_professor(uuid) to anon, authenticated, service_role;

alter table app.projects enable row level security;
alter table app.project_members enable row level security;
alter table app.project_documents enable row level security;
alter table app.project_files enable row level security;
alter table app.project_sign_requests enable row level security;
alter table app.project_settings enable row level security;

create policy projects_read on app.projects for select to anon, authenticated using (true);
create policy projects_insert on app.projects for insert to authenticated
  with check (owner_id = (select auth.uid()));
create policy projects_update on app.projects for update to authenticated
  using (private.is_project_actor(id)) with check (private.is_project_actor(id));

create policy project_members_read on app.project_members for select to authenticated
  using (private.is_project_actor(project_id));
create policy project_members_write on app.project_members for all to authenticated
  using (exists (select 1 from app.projects p where p.id = project_id
                 and p.owner_id = (select auth.uid())))
  with check (exists (select 1 from app.projects p where p.id = project_id
                      and p.owner_id = (select auth.uid())));

create policy project_documents_read on app.project_documents for select to anon, authenticated
  using (true);
create policy project_documents_write on app.project_documents for all to authenticated
  using (private.is_project_actor(project_id)) with check (private.is_project_actor(project_id));

create policy project_files_read on app.project_files for select to anon, authenticated
  using (true);
create policy project_files_insert on app.project_files for insert to authenticated
  with check (uploaded_by = (select auth.uid())
              and (private.is_project_actor(private.project_of_document(document_id))
                   or private.is_addressed_professor(document_id)));

create policy project_sign_requests_read on app.project_sign_requests for select to authenticated
  using (actor_id = (select auth.uid()) or professor_id = (select auth.uid()));
create policy project_sign_requests_insert on app.project_sign_requests for insert
  to authenticated
  with check (actor_id = (select auth.uid())
              and private.is_project_actor(private.project_of_document(document_id)));
create policy project_sign_requests_answer on app.project_sign_requests for update
  to authenticated
  using (professor_id = (select auth.uid())) with check (professor_id = (select auth.uid()));

create policy project_settings_read on app.project_settings for select to authenticated
  using (private.is_staff());
create policy project_settings_write on app.project_settings for all to authenticated
  using (private.is_admin()) with check (private.is_admin());

grant select on app.projects, app.project_documents, app.project_files to anon, authenticated;
grant insert, update on app.projects to authenticated;
grant select, insert, delete on app.project_members to authenticated;
grant insert, update, delete on app.project_documents to authenticated;
grant insert on app.project_files to authenticated;
grant select, insert, update on app.project_sign_requests to authenticated;
grant select, insert, update, delete on app.project_settings to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Student records and change requests (admin-only table; students read outcomes via rpc)
-- ---------------------------------------------------------------------------------------------
create table app.student_records (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null unique references app.users (id) on delete cascade,
  student_id text not null unique check (student_id ~ '^[0-9]{9}-[0-9]$'),
  full_name text not null check (char_length(btrim(full_name)) between 1 and 160),
  faculty text check (char_length(faculty) <= 120),
  year smallint check (year between 1 and 8),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table app.student_change_requests (
  id uuid primary key default gen_random_uuid(),
  record_id uuid not null references app.student_records (id) on delete cascade,
  field text not null check (field in ('full_name', 'faculty', 'year')),
  requested_value text not null check (char_length(requested_value) <= 200),
  verdict text check (verdict in ('approved', 'rejected')),
  admin_note text check (char_length(admin_note) <= 1000),
  applied_value text check (char_length(applied_value) <= 200),
  decided_by uuid references app.users (id) on delete set null,
  decided_at timestamptz,
  created_at timestamptz not null default now()
);

create trigger student_records_touch before update on app.student_records
  for each row execute function private.touch_updated_at();
create trigger student_change_requests_audit after insert or update or delete
  on app.student_change_requests for each row execute function audit.capture();

alter table app.student_records enable row level security;
alter table app.student_change_requests enable row level security;

create policy student_records_read on app.student_records for select to authenticated
  using (user_id = (select auth.uid()) or private.is_admin());
create policy student_records_admin on app.student_records for all to authenticated
  using (private.is_admin()) with check (private.is_admin());
create policy student_change_requests_admin on app.student_change_requests for all
  to authenticated using (private.is_admin()) with check (private.is_admin());

grant select, insert, update, delete on app.student_records, app.student_change_requests
  to authenticated;

-- ---------------------------------------------------------------------------------------------
-- People and identity conflicts
-- ---------------------------------------------------------------------------------------------
create table app.people (
  id uuid primary key default gen_random_uuid(),
  user_id uuid unique references app.users (id) on delete set null,
  display_name text not null check (char_length(btrim(display_name)) between 1 and 160),
  created_at timestamptz not null default now()
);

create table app.identity_conflicts (
  id uuid primary key default gen_random_uuid(),
  person_id uuid not null references app.people (id) on delete cascade,
  details jsonb not null default '{}'::jsonb check (jsonb_typeof(details) = 'object'),
  resolved_at timestamptz,
  created_at timestamptz not null default now()
);

create or replace function private.my_person_id()
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select id from app.people where user_id = (select auth.uid());
$$;
grant execute on function private.my_person_id() to anon, authenticated, service_role;

alter table app.people enable row level security;
alter table app.identity_conflicts enable row level security;

create policy people_read on app.people for select to authenticated
  using (user_id = (select auth.uid()) or private.is_admin());
create policy identity_conflicts_read on app.identity_conflicts for select to authenticated
  using (private.is_admin() or person_id = private.my_person_id());
create policy identity_conflicts_admin on app.identity_conflicts for all to authenticated
  using (private.is_admin()) with check (private.is_admin());

grant select on app.people to authenticated;
grant select, insert, update, delete on app.identity_conflicts to authenticated;

-- ---------------------------------------------------------------------------------------------
-- Passport (exposed schema of its own)
-- ---------------------------------------------------------------------------------------------
create table passport.profiles (
  user_id uuid primary key references app.users (id) on delete cascade,
  nickname text check (char_length(nickname) <= 40),
  faculty text check (char_length(faculty) <= 120),
  points integer not null default 0 check (points >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table passport.activities (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references app.users (id) on delete cascade,
  title text not null check (char_length(btrim(title)) between 1 and 200),
  points integer not null check (points between 0 and 1000),
  created_at timestamptz not null default now()
);

create trigger profiles_touch before update on passport.profiles
  for each row execute function private.touch_updated_at();

alter table passport.profiles enable row level security;
alter table passport.activities enable row level security;

create policy profiles_read on passport.profiles for select to authenticated
  using (user_id = (select auth.uid()) or private.is_admin());
create policy profiles_insert on passport.profiles for insert to authenticated
  with check (user_id = (select auth.uid()) and points = 0);
create policy profiles_update on passport.profiles for update to authenticated
  using (user_id = (select auth.uid()) or private.is_admin())
  with check (user_id = (select auth.uid()) or private.is_admin());
create policy activities_read on passport.activities for select to authenticated
  using (user_id = (select auth.uid()) or private.is_admin());
create policy activities_admin on passport.activities for all to authenticated
  using (private.is_admin()) with check (private.is_admin());

grant select, insert, update on passport.profiles to authenticated;
grant select, insert, update, delete on passport.activities to authenticated;

create or replace function private.guard_profile_update()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (select auth.uid()) is null or private.is_admin() then
    return new;
  end if;
  if (to_jsonb(new) - array['nickname', 'faculty', 'updated_at'])
     is distinct from (to_jsonb(old) - array['nickname', 'faculty', 'updated_at']) then
    raise exception 'points are awarded by admins' using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger profiles_guard before update on passport.profiles
  for each row execute function private.guard_profile_update();

create view passport.user_tiers with (security_invoker = true) as
select p.user_id,
       p.points,
       case when p.points >= 500 then 'gold'
            when p.points >= 200 then 'silver'
            else 'bronze' end as tier
from passport.profiles p;

grant select on passport.user_tiers to authenticated;
