-- Team tree, team members, projects and signing.

create type public.node_kind as enum ('org', 'division', 'team', 'role');

create table public.team_nodes (
  id        bigint generated always as identity primary key,
  parent_id bigint references public.team_nodes (id) on delete cascade,
  name      text not null,
  kind      public.node_kind not null default 'team',
  position  integer not null default 0,
  is_public boolean not null default false,
  constraint team_nodes_not_own_parent check (parent_id is distinct from id)
);
create index team_nodes_parent_idx on public.team_nodes (parent_id);

create table public.team_members (
  node_id             bigint not null references public.team_nodes (id) on delete cascade,
  kkumail             public.kku_email not null,
  user_id             uuid references public.users (id) on delete set null,
  name                text not null,
  nickname            text,
  position            text,
  student_id          text check (student_id is null or student_id ~ '^[0-9]{9,10}(-[0-9])?$'),
  year                smallint check (year between 1 and 8),
  major               text,
  permissions         public.app_permission[] not null default '{}',
  vs_dept             public.dept_code,
  project_seat        text,
  sort_order          integer not null default 0,
  primary key (node_id, kkumail)
);
create index team_members_user_idx on public.team_members (user_id);
create index team_members_email_idx on public.team_members (kkumail);

alter table public.team_nodes enable row level security;
alter table public.team_members enable row level security;

-- No anon grant on either (rule 11): the public sees the tree through get_public_org_chart only.
grant select on public.team_nodes to authenticated;
grant insert, update, delete on public.team_nodes to authenticated;
grant select on public.team_members to authenticated;
grant insert, update, delete on public.team_members to authenticated;

create policy team_nodes_read on public.team_nodes for select to authenticated
  using (is_public or (select public.current_user_is_staff()));
create policy team_nodes_admin_write on public.team_nodes for all to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create policy team_members_read_self on public.team_members for select to authenticated
  using (user_id = (select auth.uid()));
create policy team_members_read_staff on public.team_members for select to authenticated
  using ((select public.current_user_is_staff()));
create policy team_members_admin_write on public.team_members for all to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

-- Private resolvers (rule 15): answer questions about another person; no API role may call them.
create or replace function private.effective_team_permissions_for_email(p_email text)
returns public.app_permission[]
language sql stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(distinct p), '{}')
    from public.team_members m, unnest(m.permissions) p
   where m.kkumail = p_email::extensions.citext
$$;

create or replace function private.effective_team_vs_dept_for_email(p_email text)
returns text
language sql stable
security definer
set search_path = ''
as $$
  select m.vs_dept from public.team_members m
   where m.kkumail = p_email::extensions.citext and m.vs_dept is not null
   order by m.node_id limit 1
$$;

create or replace function private.node_effective_is_public(p_node bigint)
returns boolean
language sql stable
security definer
set search_path = ''
as $$
  with recursive up as (
    select n.id, n.parent_id, n.is_public from public.team_nodes n where n.id = p_node
    union all
    select n.id, n.parent_id, n.is_public from public.team_nodes n join up on n.id = up.parent_id
  )
  select coalesce(bool_and(is_public), false) from up
$$;

revoke execute on function private.effective_team_permissions_for_email(text),
  private.effective_team_vs_dept_for_email(text), private.node_effective_is_public(bigint)
  from public, anon, authenticated;

create or replace function public.get_public_org_chart()
returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  with recursive visible as (
    select n.id, n.parent_id, n.name, n.kind, n.position
      from public.team_nodes n
     where n.parent_id is null and n.is_public
    union all
    select n.id, n.parent_id, n.name, n.kind, n.position
      from public.team_nodes n join visible v on n.parent_id = v.id
     where n.is_public
  )
  select jsonb_build_object(
    'nodes', coalesce((select jsonb_agg(jsonb_build_object('id', v.id, 'parent_id', v.parent_id,
                                                           'name', v.name, 'kind', v.kind,
                                                           'position', v.position)
                                        order by v.parent_id nulls first, v.position)
                         from visible v), '[]'::jsonb),
    'members', coalesce((select jsonb_agg(jsonb_build_object('node_id', m.node_id, 'name', m.name,
                                                             'nickname', m.nickname,
                                                             'position', m.position)
                                          order by m.node_id, m.sort_order)
                           from public.team_members m join visible v on v.id = m.node_id), '[]'::jsonb))
$$;

-- Copies the caller's team permissions onto their managed_permissions (claims follow on refresh).
create or replace function public.sync_my_team_permissions()
returns public.app_permission[]
language plpgsql
security definer
set search_path = ''
as $$
declare v_email text; v_perms public.app_permission[];
begin
  if (select auth.uid()) is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select u.email into v_email from public.users u where u.id = auth.uid();
  if v_email is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  v_perms := private.effective_team_permissions_for_email(v_email);
  update public.users set managed_permissions = v_perms where id = auth.uid();
  return v_perms;
end;
$$;

revoke execute on function public.get_public_org_chart(), public.sync_my_team_permissions()
  from public, anon, authenticated;
grant execute on function public.get_public_org_chart() to anon, authenticated;
grant execute on function public.sync_my_team_permissions() to authenticated;

-- ---------------------------------------------------------------- projects
create table public.projects (
  id         bigint generated always as identity primary key,
  title      text not null,
  owner_id   uuid references public.users (id) on delete set null,
  summary    text,
  created_at timestamptz not null default now()
);

create table public.project_members (
  project_id bigint not null references public.projects (id) on delete cascade,
  user_id    uuid not null references public.users (id) on delete cascade,
  primary key (project_id, user_id)
);

create table public.project_documents (
  id         bigint generated always as identity primary key,
  project_id bigint not null references public.projects (id) on delete cascade,
  title      text not null,
  created_at timestamptz not null default now()
);

create table public.project_files (
  id          bigint generated always as identity primary key,
  document_id bigint not null references public.project_documents (id) on delete cascade,
  storage_path text not null,
  is_signed   boolean not null default false,
  uploaded_by uuid not null default auth.uid() references public.users (id),
  created_at  timestamptz not null default now()
);

create type public.sign_status as enum ('requested', 'signed', 'declined');

create table public.project_sign_requests (
  id           bigint generated always as identity primary key,
  document_id  bigint not null references public.project_documents (id) on delete cascade,
  actor_id     uuid not null default auth.uid() references public.users (id),
  professor_id uuid not null references public.users (id),
  status       public.sign_status not null default 'requested',
  created_at   timestamptz not null default now(),
  unique (document_id, professor_id)
);

create table public.project_settings (
  singleton  boolean primary key default true check (singleton),
  intake_open boolean not null default false,
  max_members smallint not null default 5,
  updated_at timestamptz not null default now()
);

alter table public.projects enable row level security;
alter table public.project_members enable row level security;
alter table public.project_documents enable row level security;
alter table public.project_files enable row level security;
alter table public.project_sign_requests enable row level security;
alter table public.project_settings enable row level security;

create or replace function public.current_user_is_project_actor()
returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select (select auth.uid()) is not null and (
    public.current_user_role() in ('dev', 'admin', 'staff', 'uni_staff')
    or exists (select 1 from public.project_members pm where pm.user_id = (select auth.uid())))
$$;

-- Is the caller the professor addressed for this document? (definer: rule 17)
create or replace function private.is_addressed_professor(p_document bigint)
returns boolean
language sql stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.project_sign_requests r
                  where r.document_id = p_document and r.professor_id = (select auth.uid()))
$$;
revoke execute on function public.current_user_is_project_actor(), private.is_addressed_professor(bigint)
  from public, anon, authenticated;
grant execute on function public.current_user_is_project_actor() to anon, authenticated;
grant execute on function private.is_addressed_professor(bigint) to authenticated;

grant select on public.projects, public.project_documents, public.project_files to anon, authenticated;
grant insert on public.project_files to authenticated;
grant insert, update, delete on public.projects, public.project_documents to authenticated;
grant select, insert, delete on public.project_members to authenticated;
grant select, insert on public.project_sign_requests to authenticated;
-- The addressed professor answers a request: the status column and nothing else.
grant update (status) on public.project_sign_requests to authenticated;
grant select, update on public.project_settings to authenticated;

create policy projects_read on public.projects for select to anon, authenticated using (true);
create policy project_documents_read on public.project_documents for select to anon, authenticated using (true);
create policy project_files_read on public.project_files for select to anon, authenticated using (true);

create policy projects_actor_write on public.projects for all to authenticated
  using ((select public.current_user_is_project_actor()))
  with check ((select public.current_user_is_project_actor()));
create policy project_documents_actor_write on public.project_documents for all to authenticated
  using ((select public.current_user_is_project_actor()))
  with check ((select public.current_user_is_project_actor()));

create policy project_members_read on public.project_members for select to authenticated
  using (user_id = (select auth.uid()) or (select public.current_user_is_staff()));
create policy project_members_staff_write on public.project_members for insert to authenticated
  with check ((select public.current_user_is_staff()));
create policy project_members_staff_delete on public.project_members for delete to authenticated
  using ((select public.current_user_is_staff()));

-- Upload: a project actor, or the professor a sign request is addressed to (signed copy).
create policy project_files_upload on public.project_files for insert to authenticated
  with check (uploaded_by = (select auth.uid())
              and ((select public.current_user_is_project_actor())
                   or (public.current_user_role() = 'sa_prof'
                       and private.is_addressed_professor(document_id))));

create policy sign_requests_read on public.project_sign_requests for select to authenticated
  using (actor_id = (select auth.uid()) or professor_id = (select auth.uid()));
create policy sign_requests_create on public.project_sign_requests for insert to authenticated
  with check (actor_id = (select auth.uid()) and (select public.current_user_is_project_actor()));
create policy sign_requests_professor_update on public.project_sign_requests for update to authenticated
  using (professor_id = (select auth.uid()))
  with check (professor_id = (select auth.uid()));

create policy project_settings_staff_read on public.project_settings for select to authenticated
  using ((select public.current_user_is_staff()));
create policy project_settings_admin_update on public.project_settings for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

insert into public.project_settings (singleton) values (true);
