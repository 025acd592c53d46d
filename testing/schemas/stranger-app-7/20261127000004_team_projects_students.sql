-- Team tree, projects, student records, identity conflicts.

create table public.team_nodes (
  id bigint generated always as identity primary key,
  parent_id bigint references public.team_nodes (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 120),
  kind text not null default 'team' check (kind in ('org', 'division', 'team', 'role')),
  position integer not null default 0,
  is_public boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint team_nodes_not_own_parent check (parent_id is distinct from id)
);

create unique index team_nodes_sibling_position on public.team_nodes (parent_id, position);

create table public.team_members (
  id bigint generated always as identity primary key,
  node_id bigint not null references public.team_nodes (id) on delete cascade,
  user_id uuid references public.profiles (id) on delete set null,
  name text not null,
  nickname text,
  position text,
  kkumail extensions.citext not null check (kkumail ~ '^[^@\s]+@kkumail\.com$'),
  student_id text check (student_id ~ '^[0-9]{9}-[0-9]$'),
  year smallint check (year between 1 and 8),
  major text,
  permissions public.app_permission[] not null default '{}',
  vs_dept text check (vs_dept ~ '^[A-Z]{2,6}$'),
  project_seat text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (node_id, kkumail)
);

create trigger team_nodes_updated_at before update on public.team_nodes
  for each row execute procedure extensions.moddatetime (updated_at);
create trigger team_members_updated_at before update on public.team_members
  for each row execute procedure extensions.moddatetime (updated_at);

alter table public.team_nodes enable row level security;
alter table public.team_members enable row level security;

create policy "Members read the team tree"
  on public.team_nodes for select to authenticated
  using (true);

create policy "Admins manage the team tree"
  on public.team_nodes for all to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

-- No anon policy on team_members: the public sees the org chart RPC only.
create policy "Members read their own membership"
  on public.team_members for select to authenticated
  using (user_id = (select auth.uid()));

create policy "Staff read team members"
  on public.team_members for select to authenticated
  using ((select public.current_user_is_staff()));

create policy "Admins manage team members"
  on public.team_members for all to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

grant select, insert, update, delete on table public.team_nodes to authenticated;
grant select, insert, update, delete on table public.team_members to authenticated;

-- Private resolvers (rule 15): callable by definer code only.
create or replace function public.node_effective_is_public(p_node_id bigint)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  with recursive up as (
    select n.id, n.parent_id, n.is_public, 1 as depth
      from public.team_nodes n where n.id = p_node_id
    union all
    select p.id, p.parent_id, p.is_public, up.depth + 1
      from public.team_nodes p join up on p.id = up.parent_id
     where up.depth < 64
  )
  select coalesce(bool_and(is_public), false) and count(*) > 0 from up;
$$;

create or replace function public.effective_team_permissions_for_email(p_email text)
returns public.app_permission[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(distinct p order by p), '{}')
    from public.team_members m, unnest(m.permissions) as p
   where m.kkumail = p_email::extensions.citext;
$$;

create or replace function public.effective_team_vs_dept_for_email(p_email text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select m.vs_dept from public.team_members m
   where m.kkumail = p_email::extensions.citext and m.vs_dept is not null
   order by m.id limit 1;
$$;

revoke execute on function public.node_effective_is_public(bigint) from public, anon, authenticated;
revoke execute on function public.effective_team_permissions_for_email(text) from public, anon, authenticated;
revoke execute on function public.effective_team_vs_dept_for_email(text) from public, anon, authenticated;

create or replace function public.get_public_org_chart()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'nodes', coalesce((
      select jsonb_agg(jsonb_build_object('id', n.id, 'parent_id', n.parent_id, 'name', n.name,
                                          'kind', n.kind, 'position', n.position)
                       order by n.parent_id nulls first, n.position)
        from public.team_nodes n
       where public.node_effective_is_public(n.id)), '[]'::jsonb),
    'members', coalesce((
      select jsonb_agg(jsonb_build_object('node_id', m.node_id, 'name', m.name,
                                          'nickname', m.nickname, 'position', m.position)
                       order by m.node_id, m.id)
        from public.team_members m
       where public.node_effective_is_public(m.node_id)), '[]'::jsonb)
  );
$$;

-- Copies the caller's team permissions into managed_permissions. They show up in the token at
-- the next refresh.
create or replace function public.sync_my_team_permissions()
returns public.app_permission[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  my_email text;
  perms public.app_permission[];
begin
  if (select auth.uid()) is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select email::text into my_email from public.profiles where id = (select auth.uid());
  if my_email is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  perms := public.effective_team_permissions_for_email(my_email);
  update public.profiles set managed_permissions = perms where id = (select auth.uid());
  update public.team_members set user_id = (select auth.uid())
   where kkumail = my_email::extensions.citext and user_id is null;
  return perms;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Projects
-- ---------------------------------------------------------------------------------------------
create table public.projects (
  id bigint generated always as identity primary key,
  slug text not null unique check (slug ~ '^[a-z0-9-]+$'),
  title text not null,
  owner_id uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table public.project_documents (
  id bigint generated always as identity primary key,
  project_id bigint not null references public.projects (id) on delete cascade,
  title text not null,
  body text not null default '',
  created_at timestamptz not null default now()
);

create table public.project_sign_requests (
  id bigint generated always as identity primary key,
  document_id bigint not null references public.project_documents (id) on delete cascade,
  requested_by uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  professor_id uuid not null references public.profiles (id) on delete cascade,
  state text not null default 'pending' check (state in ('pending', 'signed', 'declined')),
  created_at timestamptz not null default now(),
  unique (document_id, professor_id)
);

create table public.project_files (
  id bigint generated always as identity primary key,
  project_id bigint not null references public.projects (id) on delete cascade,
  document_id bigint references public.project_documents (id) on delete cascade,
  sign_request_id bigint references public.project_sign_requests (id) on delete cascade,
  storage_path text not null unique,
  uploaded_by uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now()
);

create table public.project_settings (
  id boolean primary key default true check (id),
  submissions_open boolean not null default true,
  config jsonb not null default '{}'::jsonb check (jsonb_typeof(config) = 'object'),
  updated_at timestamptz not null default now()
);

create trigger projects_updated_at before update on public.projects
  for each row execute procedure extensions.moddatetime (updated_at);
create trigger project_settings_updated_at before update on public.project_settings
  for each row execute procedure extensions.moddatetime (updated_at);

create or replace function public.current_user_is_project_actor()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(
    public.current_user_role() in ('dev', 'admin', 'staff', 'uni_staff')
      or public.current_user_has_permission('master'),
    false
  );
$$;

alter table public.projects enable row level security;
alter table public.project_documents enable row level security;
alter table public.project_files enable row level security;
alter table public.project_sign_requests enable row level security;
alter table public.project_settings enable row level security;

create policy "Anyone reads projects" on public.projects
  for select to anon, authenticated using (true);
create policy "Anyone reads project documents" on public.project_documents
  for select to anon, authenticated using (true);
create policy "Anyone reads project files" on public.project_files
  for select to anon, authenticated using (true);

create policy "Project actors manage projects" on public.projects
  for all to authenticated
  using ((select public.current_user_is_project_actor()))
  with check ((select public.current_user_is_project_actor()));
create policy "Project actors manage documents" on public.project_documents
  for all to authenticated
  using ((select public.current_user_is_project_actor()))
  with check ((select public.current_user_is_project_actor()));
create policy "Project actors manage files" on public.project_files
  for all to authenticated
  using ((select public.current_user_is_project_actor()))
  with check ((select public.current_user_is_project_actor()));

-- A professor uploads the signed file for a request addressed to them.
create policy "Professors upload signed files" on public.project_files
  for insert to authenticated
  with check (
    (select public.current_user_role()) = 'sa_prof'
    and uploaded_by = (select auth.uid())
    and sign_request_id is not null
    and exists (
      select 1 from public.project_sign_requests r
       where r.id = sign_request_id and r.professor_id = (select auth.uid())
    )
  );

create policy "Actors and addressed professors read sign requests" on public.project_sign_requests
  for select to authenticated
  using (requested_by = (select auth.uid())
         or professor_id = (select auth.uid())
         or (select public.current_user_is_project_actor()));

create policy "Project actors request signatures" on public.project_sign_requests
  for insert to authenticated
  with check ((select public.current_user_is_project_actor())
              and requested_by = (select auth.uid()));

create policy "Addressed professors answer sign requests" on public.project_sign_requests
  for update to authenticated
  using (professor_id = (select auth.uid()))
  with check (professor_id = (select auth.uid()));

create policy "Staff read project settings" on public.project_settings
  for select to authenticated using ((select public.current_user_is_staff()));
create policy "Admins change project settings" on public.project_settings
  for update to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

create or replace function public.guard_sign_request_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  allowed text[] := array['state'];
begin
  if (select auth.uid()) is null or public.current_user_is_project_actor() then
    return new;
  end if;
  if (to_jsonb(new) - allowed) is distinct from (to_jsonb(old) - allowed) then
    raise exception 'a professor can only answer the request' using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger project_sign_requests_guard
  before update on public.project_sign_requests
  for each row execute procedure public.guard_sign_request_update();

grant select on table public.projects, public.project_documents, public.project_files to anon;
grant select, insert, update, delete on table
  public.projects, public.project_documents, public.project_files, public.project_sign_requests
  to authenticated;
grant select, update on table public.project_settings to authenticated;
revoke all on table public.project_settings from anon;

-- ---------------------------------------------------------------------------------------------
-- Student records and change requests
-- ---------------------------------------------------------------------------------------------
create table public.student_records (
  id bigint generated always as identity primary key,
  user_id uuid not null unique references public.profiles (id) on delete cascade,
  student_id text not null unique check (student_id ~ '^[0-9]{9}-[0-9]$'),
  first_name text not null,
  last_name text not null,
  faculty text,
  major text,
  year smallint check (year between 1 and 8),
  updated_at timestamptz not null default now()
);

create trigger student_records_updated_at before update on public.student_records
  for each row execute procedure extensions.moddatetime (updated_at);

create table public.student_change_requests (
  id bigint generated always as identity primary key,
  record_id bigint not null references public.student_records (id) on delete cascade,
  field text not null check (field in ('first_name', 'last_name', 'faculty', 'major', 'year')),
  requested_value text not null,
  verdict text not null default 'pending' check (verdict in ('pending', 'approved', 'rejected')),
  admin_note text,
  applied_value text,
  decided_by uuid references public.profiles (id) on delete set null,
  decided_at timestamptz,
  created_at timestamptz not null default now()
);

-- One open request per field and record.
create unique index student_change_requests_one_open
  on public.student_change_requests (record_id, field) where verdict = 'pending';

alter table public.student_records enable row level security;
alter table public.student_change_requests enable row level security;

create policy "University staff read student records" on public.student_records
  for select to authenticated
  using ((select public.current_user_role()) in ('uni_staff', 'admin', 'dev'));
create policy "University staff manage student records" on public.student_records
  for all to authenticated
  using ((select public.current_user_role()) in ('uni_staff', 'admin', 'dev'))
  with check ((select public.current_user_role()) in ('uni_staff', 'admin', 'dev'));

create policy "Admins handle change requests" on public.student_change_requests
  for all to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

grant select, insert, update, delete on table public.student_records to authenticated;
grant select, insert, update, delete on table public.student_change_requests to authenticated;

create or replace function public.request_student_change(p_field text, p_value text)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  rec_id bigint;
  new_id bigint;
begin
  select id into rec_id from public.student_records where user_id = (select auth.uid());
  if rec_id is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  insert into public.student_change_requests (record_id, field, requested_value)
  values (rec_id, p_field, p_value)
  returning id into new_id;
  return new_id;
end;
$$;

create or replace function public.get_my_student_record()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select case when (select auth.uid()) is null then null else (
    select jsonb_build_object(
      'record', to_jsonb(r),
      'requests', coalesce((
        select jsonb_agg(x order by x.created_at desc)
          from (select q.id, q.field, q.requested_value, q.verdict, q.admin_note,
                       q.applied_value, q.decided_at, q.created_at
                  from public.student_change_requests q
                 where q.record_id = r.id
                 order by q.created_at desc, q.id desc
                 limit 10) x), '[]'::jsonb)
    )
      from public.student_records r
     where r.user_id = (select auth.uid())
  ) end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Identity conflicts
-- ---------------------------------------------------------------------------------------------
create table public.people (
  id bigint generated always as identity primary key,
  user_id uuid unique references public.profiles (id) on delete cascade,
  full_name text not null
);

create table public.identity_conflicts (
  id bigint generated always as identity primary key,
  person_id bigint not null references public.people (id) on delete cascade,
  other_person_id bigint references public.people (id) on delete cascade,
  reason text not null,
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
  select p.id from public.people p where p.user_id = (select auth.uid());
$$;

alter table public.people enable row level security;
alter table public.identity_conflicts enable row level security;

create policy "People read their own person row" on public.people
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.current_user_is_admin()));
create policy "Admins manage people" on public.people
  for all to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

create policy "People read their own conflicts" on public.identity_conflicts
  for select to authenticated
  using (person_id = (select public.my_person_id()));
create policy "Admins manage identity conflicts" on public.identity_conflicts
  for all to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

grant select, insert, update, delete on table public.people, public.identity_conflicts to authenticated;
