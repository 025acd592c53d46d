-- The team tree and its members, projects, student records and identity conflicts.
create type public.node_kind as enum ('org', 'division', 'team', 'role');

create table public.team_nodes (
  id bigint generated always as identity primary key,
  org_id uuid not null default app.jwt_org_id() references public.orgs (id),
  parent_id bigint references public.team_nodes (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 120),
  kind public.node_kind not null default 'team',
  position integer not null default 0 check (position >= 0),
  is_public boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (parent_id is distinct from id)
);

create table public.team_members (
  id bigint generated always as identity primary key,
  org_id uuid not null default app.jwt_org_id() references public.orgs (id),
  node_id bigint not null references public.team_nodes (id) on delete cascade,
  user_id uuid references public.users (id) on delete set null,
  name text not null check (char_length(name) between 1 and 120),
  nickname text check (char_length(nickname) <= 40),
  position text,
  kkumail extensions.citext not null check (kkumail ~* '^[a-z0-9._-]+@kkumail\.com$'),
  student_id text check (student_id ~ '^[0-9]{9}-[0-9]$'),
  year smallint check (year between 1 and 8),
  major text,
  permissions text[] not null default '{}' check (permissions <@ array['vs', 'pr', 'house', 'master']),
  vs_dept text check (vs_dept ~ '^[A-Z]{2,6}$'),
  project_seat text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (node_id, kkumail)
);

create trigger team_nodes_touch before update on public.team_nodes
  for each row execute function app.touch_updated_at();
create trigger team_members_touch before update on public.team_members
  for each row execute function app.touch_updated_at();

alter table public.team_nodes enable row level security;
alter table public.team_members enable row level security;

create policy "tenant isolation" on public.team_nodes
  as restrictive for all to authenticated
  using (org_id = (select app.jwt_org_id())) with check (org_id = (select app.jwt_org_id()));
create policy "members read the tree" on public.team_nodes
  for select to authenticated using (true);
create policy "admins shape the tree" on public.team_nodes
  for all to authenticated using ((select app.is_admin())) with check ((select app.is_admin()));

create policy "tenant isolation" on public.team_members
  as restrictive for all to authenticated
  using (org_id = (select app.jwt_org_id())) with check (org_id = (select app.jwt_org_id()));
create policy "see your own membership" on public.team_members
  for select to authenticated using (user_id = (select auth.uid()));
create policy "staff read the roster" on public.team_members
  for select to authenticated using ((select public.current_user_is_staff()));
create policy "admins manage the roster" on public.team_members
  for all to authenticated using ((select app.is_admin())) with check ((select app.is_admin()));

grant select, insert, update, delete on public.team_nodes, public.team_members to authenticated;
revoke all on public.team_nodes, public.team_members from anon;

-- Permission resolvers used by the admin screens and by sync_my_team_permissions.
create or replace function public.effective_team_permissions_for_email(p_email extensions.citext)
returns text[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array(
    select distinct p
    from public.team_members m, unnest(m.permissions) p
    where m.kkumail = p_email
    order by p), '{}')
$$;

create or replace function public.node_effective_permissions(p_node bigint)
returns text[]
language sql
stable
security definer
set search_path = ''
as $$
  with recursive up as (
    select n.id, n.parent_id from public.team_nodes n where n.id = p_node
    union all
    select n.id, n.parent_id from public.team_nodes n join up on n.id = up.parent_id
  )
  select coalesce(array(
    select distinct p from public.team_members m join up on m.node_id = up.id, unnest(m.permissions) p
    order by p), '{}')
$$;

revoke execute on function public.effective_team_permissions_for_email(extensions.citext) from public;
revoke execute on function public.node_effective_permissions(bigint) from public;

create or replace function public.sync_my_team_permissions()
returns text[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  resolved text[];
begin
  if me is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select coalesce(array(
    select distinct p
    from public.team_members m, unnest(m.permissions) p
    where m.user_id = me
       or m.kkumail = (select u.email from public.users u where u.id = me)
    order by p), '{}')
  into resolved;
  update public.users set managed_permissions = resolved where id = me;
  return resolved;
end;
$$;
revoke execute on function public.sync_my_team_permissions() from public, anon;
grant execute on function public.sync_my_team_permissions() to authenticated;

-- Public org chart: names and positions only.
create or replace function public.get_public_org_chart()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with visible as (
    select n.id, n.parent_id, n.name, n.kind, n.position
    from public.team_nodes n
    left join public.team_nodes p on p.id = n.parent_id
    where n.is_public and (n.parent_id is null or p.is_public)
  )
  select jsonb_build_object(
    'nodes', coalesce((select jsonb_agg(jsonb_build_object(
        'id', v.id, 'parent_id', v.parent_id, 'name', v.name, 'kind', v.kind, 'position', v.position)
        order by v.parent_id nulls first, v.position) from visible v), '[]'::jsonb),
    'members', coalesce((select jsonb_agg(jsonb_build_object(
        'node_id', m.node_id, 'name', m.name, 'nickname', m.nickname, 'position', m.position)
        order by m.node_id, m.name)
        from public.team_members m join visible v on v.id = m.node_id), '[]'::jsonb))
$$;
grant execute on function public.get_public_org_chart() to anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Projects
-- ---------------------------------------------------------------------------------------------
create table public.projects (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null default app.jwt_org_id() references public.orgs (id),
  title text not null check (char_length(title) between 3 and 200),
  summary text,
  owner_id uuid references public.users (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.project_documents (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references public.projects (id) on delete cascade,
  title text not null,
  body text,
  created_by uuid references public.users (id) on delete set null default auth.uid(),
  created_at timestamptz not null default now()
);

create type public.sign_status as enum ('requested', 'signed', 'declined');

create table public.project_sign_requests (
  id bigint generated always as identity primary key,
  document_id uuid not null references public.project_documents (id) on delete cascade,
  requested_by uuid not null default auth.uid() references public.users (id) on delete cascade,
  professor_id uuid not null references public.users (id) on delete cascade,
  status public.sign_status not null default 'requested',
  created_at timestamptz not null default now(),
  unique (document_id, professor_id)
);

create table public.project_files (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references public.projects (id) on delete cascade,
  document_id uuid references public.project_documents (id) on delete set null,
  storage_path text not null check (storage_path ~ '^projects/[0-9a-f-]{36}/.+$'),
  uploaded_by uuid not null default auth.uid() references public.users (id) on delete cascade,
  is_signed_copy boolean not null default false,
  created_at timestamptz not null default now()
);

create table public.project_settings (
  org_id uuid primary key default app.jwt_org_id() references public.orgs (id),
  settings jsonb not null default '{}'::jsonb check (jsonb_typeof(settings) = 'object'),
  updated_at timestamptz not null default now()
);

create trigger projects_touch before update on public.projects
  for each row execute function app.touch_updated_at();
create trigger project_settings_touch before update on public.project_settings
  for each row execute function app.touch_updated_at();

create or replace function app.is_addressed_professor(p_document uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.project_sign_requests r
    where r.document_id = p_document and r.professor_id = (select auth.uid()))
$$;
grant execute on function app.is_addressed_professor(uuid) to authenticated;

alter table public.projects enable row level security;
alter table public.project_documents enable row level security;
alter table public.project_files enable row level security;
alter table public.project_sign_requests enable row level security;
alter table public.project_settings enable row level security;

create policy "projects are public" on public.projects for select to anon, authenticated using (true);
create policy "project actors write projects" on public.projects
  for all to authenticated
  using ((select public.current_user_is_project_actor()))
  with check ((select public.current_user_is_project_actor()));

create policy "documents are public" on public.project_documents
  for select to anon, authenticated using (true);
create policy "project actors write documents" on public.project_documents
  for all to authenticated
  using ((select public.current_user_is_project_actor()))
  with check ((select public.current_user_is_project_actor()));

create policy "files are public" on public.project_files for select to anon, authenticated using (true);
create policy "project actors upload files" on public.project_files
  for insert to authenticated
  with check ((select public.current_user_is_project_actor()) and uploaded_by = (select auth.uid()));
create policy "professors upload signed copies" on public.project_files
  for insert to authenticated
  with check (
    (select app.has_role('sa_prof'))
    and uploaded_by = (select auth.uid())
    and document_id is not null
    and app.is_addressed_professor(document_id));

create policy "sign requests: actor or addressed professor" on public.project_sign_requests
  for select to authenticated
  using (requested_by = (select auth.uid()) or professor_id = (select auth.uid()));
create policy "project actors request signatures" on public.project_sign_requests
  for insert to authenticated
  with check ((select public.current_user_is_project_actor()) and requested_by = (select auth.uid()));
create policy "professors answer" on public.project_sign_requests
  for update to authenticated
  using (professor_id = (select auth.uid())) with check (professor_id = (select auth.uid()));

create policy "tenant isolation" on public.project_settings
  as restrictive for all to authenticated
  using (org_id = (select app.jwt_org_id())) with check (org_id = (select app.jwt_org_id()));
create policy "staff read settings" on public.project_settings
  for select to authenticated using ((select public.current_user_is_staff()));
create policy "staff change settings" on public.project_settings
  for update to authenticated
  using ((select public.current_user_is_staff())) with check ((select public.current_user_is_staff()));

grant select on public.projects, public.project_documents, public.project_files to anon;
grant select, insert, update, delete on public.projects, public.project_documents to authenticated;
grant select, insert on public.project_files to authenticated;
grant select, insert, update on public.project_sign_requests to authenticated;
grant select, update on public.project_settings to authenticated;
revoke all on public.project_settings, public.project_sign_requests from anon;

-- ---------------------------------------------------------------------------------------------
-- Students
-- ---------------------------------------------------------------------------------------------
create table public.student_records (
  id bigint generated always as identity primary key,
  user_id uuid not null unique references public.users (id) on delete cascade,
  student_id text not null unique check (student_id ~ '^[0-9]{9}-[0-9]$'),
  full_name text not null,
  faculty text,
  year smallint check (year between 1 and 8),
  updated_at timestamptz not null default now()
);

create type public.change_verdict as enum ('pending', 'approved', 'rejected');

create table public.student_change_requests (
  id bigint generated always as identity primary key,
  student_record_id bigint not null references public.student_records (id) on delete cascade,
  field text not null check (field in ('full_name', 'faculty', 'year')),
  requested_value text not null,
  verdict public.change_verdict not null default 'pending',
  admin_note text,
  applied_value text,
  decided_at timestamptz,
  created_at timestamptz not null default now()
);

alter table public.student_records enable row level security;
alter table public.student_change_requests enable row level security;

create policy "students read own record" on public.student_records
  for select to authenticated using (user_id = (select auth.uid()));
create policy "registrars manage records" on public.student_records
  for all to authenticated
  using ((select app.has_role('admin', 'dev', 'uni_staff')))
  with check ((select app.has_role('admin', 'dev', 'uni_staff')));
create policy "registrars manage change requests" on public.student_change_requests
  for all to authenticated
  using ((select app.has_role('admin', 'dev', 'uni_staff')))
  with check ((select app.has_role('admin', 'dev', 'uni_staff')));

grant select, insert, update, delete on public.student_records, public.student_change_requests to authenticated;
revoke all on public.student_records, public.student_change_requests from anon;

create or replace function public.get_my_student_record()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  me uuid := auth.uid();
  rec public.student_records%rowtype;
begin
  if me is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into rec from public.student_records r where r.user_id = me;
  if not found then
    return null;
  end if;
  return jsonb_build_object(
    'record', to_jsonb(rec),
    'change_requests', coalesce((
      select jsonb_agg(x order by x.created_at desc)
      from (
        select c.id, c.field, c.requested_value, c.verdict, c.admin_note, c.applied_value,
               c.decided_at, c.created_at
        from public.student_change_requests c
        where c.student_record_id = rec.id
        order by c.created_at desc, c.id desc
        limit 10) x), '[]'::jsonb));
end;
$$;
revoke execute on function public.get_my_student_record() from public, anon;
grant execute on function public.get_my_student_record() to authenticated;

-- ---------------------------------------------------------------------------------------------
-- People and identity conflicts
-- ---------------------------------------------------------------------------------------------
create table public.people (
  id bigint generated always as identity primary key,
  user_id uuid unique references public.users (id) on delete set null,
  full_name text not null
);

create table public.identity_conflicts (
  id bigint generated always as identity primary key,
  person_id bigint not null references public.people (id) on delete cascade,
  detail jsonb not null default '{}'::jsonb,
  resolved_at timestamptz,
  created_at timestamptz not null default now()
);

create or replace function public.my_person_id()
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select p.id from public.people p where p.user_id = (select auth.uid())
$$;
revoke execute on function public.my_person_id() from public, anon;
grant execute on function public.my_person_id() to authenticated;

alter table public.people enable row level security;
alter table public.identity_conflicts enable row level security;

create policy "people: self or admin" on public.people
  for select to authenticated
  using (user_id = (select auth.uid()) or (select app.is_admin()));
create policy "conflicts: the person or admins" on public.identity_conflicts
  for select to authenticated
  using (person_id = (select public.my_person_id()) or (select app.is_admin()));
create policy "admins resolve conflicts" on public.identity_conflicts
  for update to authenticated
  using ((select app.is_admin())) with check ((select app.is_admin()));

grant select on public.people to authenticated;
grant select, update on public.identity_conflicts to authenticated;
revoke all on public.people, public.identity_conflicts from anon;
