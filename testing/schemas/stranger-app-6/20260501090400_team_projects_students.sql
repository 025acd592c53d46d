-- Team tree and members, projects, student records, identity conflicts.

create table private.team_nodes (
  id text primary key default ('node_' || encode(extensions.gen_random_bytes(6), 'hex')),
  parent_id text references private.team_nodes (id) on delete restrict,
  name text not null,
  kind private.node_kind not null default 'team',
  position integer not null default 0,
  is_public boolean not null default false,
  constraint team_nodes_not_own_parent check (parent_id is null or parent_id <> id)
);
alter table private.team_nodes enable row level security;

-- A member sits on a node; keyed by (node, e-mail): one seat per person per node.
create table private.team_members (
  node_id text not null references private.team_nodes (id) on delete restrict,
  kkumail text not null check (kkumail = lower(btrim(kkumail)) and kkumail ~ '^[^@\s]+@[^@\s]+$'),
  name text not null default '',
  nickname text,
  position text,
  student_id text,
  year smallint check (year is null or year between 1 and 8),
  major text,
  permissions text[] not null default '{}',
  vs_dept private.dept_code,
  project_seat text,
  user_id uuid references private.users (id) on delete restrict,
  primary key (node_id, kkumail)
);
alter table private.team_members enable row level security;

create policy team_nodes_read on private.team_nodes for select to authenticated
  using (api.current_user_is_staff());
create policy team_nodes_write on private.team_nodes for all to authenticated
  using (api.current_user_is_admin()) with check (api.current_user_is_admin());
-- No anon rule at all (rule 11); a member sees their own seats, staff all.
create policy team_members_read on private.team_members for select to authenticated
  using (user_id = (select auth.uid()) or api.current_user_is_staff());
create policy team_members_write on private.team_members for all to authenticated
  using (api.current_user_is_admin()) with check (api.current_user_is_admin());

create view api.team_nodes with (security_invoker = true) as
  select id, parent_id, name, kind, position, is_public from private.team_nodes;
create view api.team_members with (security_invoker = true) as
  select node_id, kkumail, name, nickname, position, student_id, year, major, permissions,
         vs_dept, project_seat, user_id
  from private.team_members;

-- Private resolvers (rule 15): never executable by the API roles.
create function private.node_effective_public(p_node text) returns boolean
language sql stable security definer set search_path = '' as $$
  with recursive up as (
    select n.id, n.parent_id, n.is_public, 0 as depth from private.team_nodes n where n.id = p_node
    union all
    select n.id, n.parent_id, n.is_public, up.depth + 1
    from private.team_nodes n join up on n.id = up.parent_id
    where up.depth < 64
  )
  select coalesce(bool_and(is_public), false) from up
$$;

create function private.effective_team_permissions_for_email(p_email text) returns text[]
language sql stable security definer set search_path = '' as $$
  select coalesce(array_agg(distinct p order by p), '{}')
  from private.team_members m, unnest(m.permissions) p
  where m.kkumail = lower(btrim(p_email))
$$;

create function private.effective_team_vs_dept_for_email(p_email text) returns text
language sql stable security definer set search_path = '' as $$
  select m.vs_dept::text from private.team_members m
  where m.kkumail = lower(btrim(p_email)) and m.vs_dept is not null
  order by m.node_id limit 1
$$;

create function api.get_public_org_chart()
returns jsonb language sql stable security definer set search_path = '' as $$
  with recursive visible as (
    select n.id, n.parent_id, n.name, n.kind, n.position
    from private.team_nodes n where n.parent_id is null and n.is_public
    union all
    select n.id, n.parent_id, n.name, n.kind, n.position
    from private.team_nodes n join visible v on n.parent_id = v.id
    where n.is_public
  )
  select jsonb_build_object(
    'nodes', coalesce((select jsonb_agg(jsonb_build_object('id', v.id, 'parent_id', v.parent_id,
                         'name', v.name, 'kind', v.kind, 'position', v.position)
                         order by v.position, v.id) from visible v), '[]'),
    'members', coalesce((select jsonb_agg(jsonb_build_object('node_id', m.node_id, 'name', m.name,
                           'nickname', m.nickname, 'position', m.position)
                           order by m.node_id, m.name, m.kkumail)
                         from private.team_members m join visible v on v.id = m.node_id), '[]'))
$$;

-- The caller's own team permissions into managed_permissions (and their VS department).
create function api.sync_my_team_permissions() returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  me private.users;
  perms text[];
  dept text;
begin
  select * into me from private.users u where u.id = auth.uid();
  if me.id is null then
    perform private.not_authorized();
  end if;
  perms := private.effective_team_permissions_for_email(me.email);
  dept := private.effective_team_vs_dept_for_email(me.email);
  update private.users set managed_permissions = perms where id = me.id;
  return jsonb_build_object('permissions', perms, 'vs_dept', dept);
end $$;

-- ---------------------------------------------------------------------------
-- Projects: readable by everyone; sign requests by their actor or the addressed professor.
-- ---------------------------------------------------------------------------
create table private.projects (
  id uuid primary key default gen_random_uuid(),
  title text not null default '',
  owner_id uuid default auth.uid() references private.users (id) on delete restrict,
  created_at timestamptz not null default now()
);
create table private.project_documents (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references private.projects (id) on delete restrict,
  title text not null default '',
  created_at timestamptz not null default now()
);
create table private.project_files (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references private.projects (id) on delete restrict,
  document_id uuid references private.project_documents (id) on delete restrict,
  uploaded_by uuid default auth.uid() references private.users (id) on delete restrict,
  file_path text not null default '',
  is_signed boolean not null default false,
  created_at timestamptz not null default now()
);
create table private.project_sign_requests (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references private.projects (id) on delete restrict,
  document_id uuid references private.project_documents (id) on delete restrict,
  actor_id uuid not null references private.users (id) on delete restrict,
  professor_id uuid not null references private.users (id) on delete restrict,
  status private.sign_status not null default 'pending',
  created_at timestamptz not null default now()
);
create table private.project_settings (
  key text primary key check (key ~ '^[a-z][a-z0-9_]*$'),
  value jsonb not null default '{}'
);
alter table private.projects enable row level security;
alter table private.project_documents enable row level security;
alter table private.project_files enable row level security;
alter table private.project_sign_requests enable row level security;
alter table private.project_settings enable row level security;

create policy projects_read on private.projects for select to anon, authenticated using (true);
create policy projects_insert on private.projects for insert to authenticated
  with check (api.current_user_is_project_actor() and owner_id = (select auth.uid()));
create policy project_documents_read on private.project_documents for select to anon, authenticated using (true);
create policy project_documents_insert on private.project_documents for insert to authenticated
  with check (api.current_user_is_project_actor());
create policy project_files_read on private.project_files for select to anon, authenticated using (true);
create policy project_files_insert_actor on private.project_files for insert to authenticated
  with check (api.current_user_is_project_actor() and uploaded_by = (select auth.uid()));
-- The professor uploads the signed file for a project a sign request addresses to them.
create function private.is_addressed_professor(p_project uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from private.project_sign_requests r
                 where r.project_id = p_project and r.professor_id = auth.uid())
$$;
create policy project_files_insert_professor on private.project_files for insert to authenticated
  with check (api.current_user_role() = 'sa_prof' and uploaded_by = (select auth.uid())
              and private.is_addressed_professor(project_id));
create policy sign_requests_read on private.project_sign_requests for select to authenticated
  using (actor_id = (select auth.uid()) or professor_id = (select auth.uid()));
create policy sign_requests_insert on private.project_sign_requests for insert to authenticated
  with check (actor_id = (select auth.uid()) and api.current_user_is_project_actor());
create policy sign_requests_update on private.project_sign_requests for update to authenticated
  using (professor_id = (select auth.uid())) with check (professor_id = (select auth.uid()));
create policy project_settings_read on private.project_settings for select to authenticated
  using (api.current_user_is_staff());
create policy project_settings_write on private.project_settings for all to authenticated
  using (api.current_user_is_admin()) with check (api.current_user_is_admin());

create view api.projects with (security_invoker = true) as
  select id, title, owner_id, created_at from private.projects;
create view api.project_documents with (security_invoker = true) as
  select id, project_id, title, created_at from private.project_documents;
create view api.project_files with (security_invoker = true) as
  select id, project_id, document_id, uploaded_by, file_path, is_signed, created_at from private.project_files;
create view api.project_sign_requests with (security_invoker = true) as
  select id, project_id, document_id, actor_id, professor_id, status, created_at
  from private.project_sign_requests;
create view api.project_settings with (security_invoker = true) as
  select key, value from private.project_settings;

-- ---------------------------------------------------------------------------
-- Students: records keyed by student id; change requests (admin-only table).
-- ---------------------------------------------------------------------------
create table private.student_records (
  student_id text primary key check (student_id ~ '^[0-9A-Za-z-]{3,20}$'),
  email text not null unique check (email = lower(btrim(email))),
  full_name text not null default '',
  faculty text,
  major text,
  year smallint,
  created_at timestamptz not null default now()
);
create table private.student_change_requests (
  id bigint generated always as identity primary key,
  student_id text not null references private.student_records (student_id) on delete restrict,
  field text not null,
  requested_value text,
  verdict private.request_verdict not null default 'pending',
  admin_note text,
  applied_value text,
  decided_at timestamptz,
  created_at timestamptz not null default now()
);
create table private.identity_conflicts (
  id bigint generated always as identity primary key,
  person_id text not null references private.student_records (student_id) on delete restrict,
  detail text not null default '',
  created_at timestamptz not null default now()
);
alter table private.student_records enable row level security;
alter table private.student_change_requests enable row level security;
alter table private.identity_conflicts enable row level security;

-- The caller's person: the student record whose e-mail is the caller's sign-in e-mail.
create function api.my_person_id() returns text
language sql stable security definer set search_path = '' as $$
  select s.student_id from private.student_records s
  join auth.users a on a.id = auth.uid()
  where s.email = lower(btrim(a.email))
$$;

create policy student_records_admin on private.student_records for all to authenticated
  using (api.current_user_is_admin()) with check (api.current_user_is_admin());
create policy change_requests_admin on private.student_change_requests for all to authenticated
  using (api.current_user_is_admin()) with check (api.current_user_is_admin());
create policy identity_conflicts_read on private.identity_conflicts for select to authenticated
  using (api.current_user_is_admin() or person_id = api.my_person_id());

create view api.student_records with (security_invoker = true) as
  select student_id, email, full_name, faculty, major, year, created_at from private.student_records;
create view api.student_change_requests with (security_invoker = true) as
  select id, student_id, field, requested_value, verdict, admin_note, applied_value, decided_at, created_at
  from private.student_change_requests;
create view api.identity_conflicts with (security_invoker = true) as
  select id, person_id, detail, created_at from private.identity_conflicts;

create function api.get_my_student_record() returns jsonb
language sql stable security definer set search_path = '' as $$
  select case when auth.uid() is null then null else (
    select jsonb_build_object(
      'record', to_jsonb(s),
      'requests', coalesce((
        select jsonb_agg(jsonb_build_object('id', r.id, 'field', r.field, 'verdict', r.verdict,
                 'admin_note', r.admin_note, 'applied_value', r.applied_value,
                 'created_at', r.created_at) order by r.created_at desc, r.id desc)
        from (select * from private.student_change_requests c
              where c.student_id = s.student_id
              order by c.created_at desc, c.id desc limit 10) r), '[]'))
    from private.student_records s where s.student_id = api.my_person_id())
  end
$$;
