-- Team tree (serial keys, an enum kind), members hidden from the public, an org chart returned as
-- a composite type, projects, student records with change requests, identity conflicts.

create type public.node_kind as enum ('root', 'division', 'team', 'unit');

create table public.team_nodes (
  id serial primary key,
  parent_id integer references public.team_nodes (id) on delete cascade,
  name text not null,
  kind public.node_kind not null default 'team',
  position integer not null default 0,
  is_public boolean not null default true
);

create table public.team_members (
  id uuid primary key default gen_random_uuid(),
  node_id integer not null references public.team_nodes (id) on delete cascade,
  user_id uuid references public.profiles (id) on delete set null,
  name text not null,
  nickname text,
  position text,
  kkumail extensions.citext not null,
  student_id text,
  year smallint check (year between 1 and 8),
  major text,
  permissions text[] not null default '{}',
  vs_dept text,
  project_seat text
);

alter table public.team_nodes enable row level security;
alter table public.team_members enable row level security;
create policy team_nodes_staff on public.team_nodes for all to authenticated
  using (public.current_user_is_staff()) with check (public.is_admin());
create policy team_members_staff on public.team_members for all to authenticated
  using (public.current_user_is_staff()) with check (public.is_admin());
grant select, insert, update, delete on public.team_nodes, public.team_members to authenticated;
grant usage on sequence public.team_nodes_id_seq to authenticated;
grant all on public.team_nodes, public.team_members to service_role;

-- private resolvers (rule 15): no API role may run them
create function public.node_effective_is_public(p_node integer) returns boolean
language sql stable security definer set search_path = '' as $$
  with recursive up as (
    select n.id, n.parent_id, n.is_public from public.team_nodes n where n.id = p_node
    union all
    select n.id, n.parent_id, n.is_public from public.team_nodes n join up on n.id = up.parent_id
  )
  select coalesce(bool_and(is_public), false) from up
$$;

create function public.effective_team_permissions_for_email(p_email text) returns text[]
language sql stable security definer set search_path = '' as $$
  select coalesce(array_agg(distinct p order by p), '{}')
  from public.team_members m, unnest(m.permissions) p
  where m.kkumail = p_email::extensions.citext
$$;

create function public.effective_team_vs_dept_for_email(p_email text) returns text
language sql stable security definer set search_path = '' as $$
  select m.vs_dept from public.team_members m
  where m.kkumail = p_email::extensions.citext and m.vs_dept is not null
  order by m.id limit 1
$$;

revoke execute on function public.node_effective_is_public(integer),
  public.effective_team_permissions_for_email(text), public.effective_team_vs_dept_for_email(text)
  from public, anon, authenticated;

create type public.org_chart as (nodes jsonb, members jsonb);

create function public.get_public_org_chart() returns public.org_chart
language sql stable security definer set search_path = '' as $$
  select row(
    coalesce((select jsonb_agg(jsonb_build_object('id', n.id, 'parent_id', n.parent_id,
                'name', n.name, 'kind', n.kind, 'position', n.position) order by n.position, n.id)
              from public.team_nodes n where public.node_effective_is_public(n.id)), '[]'),
    coalesce((select jsonb_agg(jsonb_build_object('node_id', m.node_id, 'name', m.name,
                'nickname', m.nickname, 'position', m.position) order by m.node_id, m.name)
              from public.team_members m where public.node_effective_is_public(m.node_id)), '[]')
  )::public.org_chart
$$;

create function public.sync_my_team_permissions()
returns table (permissions text[], vs_dept text)
language plpgsql security definer set search_path = '' as $$
declare
  v_email text;
  v_perms text[];
begin
  if (select auth.uid()) is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select p.email into v_email from public.profiles p where p.id = (select auth.uid());
  if v_email is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  v_perms := public.effective_team_permissions_for_email(v_email);
  perform set_config('app.guard_bypass', 'on', true);
  update public.profiles set managed_permissions = v_perms where id = (select auth.uid());
  perform set_config('app.guard_bypass', '', true);
  return query select v_perms, public.effective_team_vs_dept_for_email(v_email);
end $$;

grant execute on function public.get_public_org_chart() to anon, authenticated;
grant execute on function public.sync_my_team_permissions() to authenticated;

-- ---------------------------------------------------------------- projects (rule 10)

create table public.projects (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null references public.profiles (id) on delete cascade,
  title text not null,
  created_at timestamptz not null default now()
);
create table public.project_documents (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references public.projects (id) on delete cascade,
  title text not null,
  body text not null default ''
);
create table public.project_files (
  id uuid primary key default gen_random_uuid(),
  document_id uuid not null references public.project_documents (id) on delete cascade,
  path text not null,
  uploaded_by uuid not null default auth.uid() references public.profiles (id),
  signed boolean not null default false
);
create table public.project_sign_requests (
  id uuid primary key default gen_random_uuid(),
  document_id uuid not null references public.project_documents (id) on delete cascade,
  actor_id uuid not null references public.profiles (id),
  professor_id uuid not null references public.profiles (id),
  status text not null default 'pending' check (status in ('pending', 'signed', 'declined'))
);
create table public.project_settings (
  id boolean primary key default true check (id),
  settings jsonb not null default '{}'
);

alter table public.projects enable row level security;
alter table public.project_documents enable row level security;
alter table public.project_files enable row level security;
alter table public.project_sign_requests enable row level security;
alter table public.project_settings enable row level security;

create policy projects_read on public.projects for select to anon, authenticated using (true);
create policy project_documents_read on public.project_documents for select to anon, authenticated using (true);
create policy project_files_read on public.project_files for select to anon, authenticated using (true);
create policy projects_write on public.projects for all to authenticated
  using (public.current_user_is_project_actor()) with check (public.current_user_is_project_actor());
create policy project_documents_write on public.project_documents for all to authenticated
  using (public.current_user_is_project_actor()) with check (public.current_user_is_project_actor());
create policy project_files_upload on public.project_files for insert to authenticated
  with check (uploaded_by = (select auth.uid()) and (
    public.current_user_is_project_actor()
    or exists (select 1 from public.project_sign_requests r
               where r.document_id = project_files.document_id
                 and r.professor_id = (select auth.uid()))));
create policy sign_requests_read on public.project_sign_requests for select to authenticated
  using (actor_id = (select auth.uid()) or professor_id = (select auth.uid()));
create policy sign_requests_write on public.project_sign_requests for insert to authenticated
  with check (actor_id = (select auth.uid()) and public.current_user_is_project_actor());
create policy project_settings_staff on public.project_settings for all to authenticated
  using (public.current_user_is_staff()) with check (public.current_user_is_staff());

grant select on public.projects, public.project_documents, public.project_files to anon;
grant select, insert, update, delete on public.projects, public.project_documents,
  public.project_files, public.project_sign_requests, public.project_settings to authenticated;
grant all on public.projects, public.project_documents, public.project_files,
  public.project_sign_requests, public.project_settings to service_role;

-- ---------------------------------------------------------------- students (rules 17, 18)

create type public.request_verdict as enum ('pending', 'approved', 'rejected');

create table public.student_records (
  id integer generated always as identity primary key,
  email extensions.citext not null unique,
  student_id text not null unique,
  full_name text not null,
  faculty text,
  year smallint
);

create table public.student_change_requests (
  id integer generated always as identity primary key,
  record_id integer not null references public.student_records (id) on delete cascade,
  field text not null,
  requested_value text,
  verdict public.request_verdict not null default 'pending',
  admin_note text,
  applied_value text,
  created_at timestamptz not null default now(),
  constraint applied_only_when_approved check (applied_value is null or verdict = 'approved')
);

create table public.identity_conflicts (
  id integer generated always as identity primary key,
  person_id integer not null references public.student_records (id) on delete cascade,
  details jsonb not null default '{}',
  resolved boolean not null default false
);

create function public.my_person_id() returns integer
language sql stable security definer set search_path = '' as $$
  select r.id from public.student_records r
  join public.profiles p on lower(btrim(p.email::text)) = lower(btrim(r.email::text))
  where p.id = (select auth.uid())
$$;
grant execute on function public.my_person_id() to authenticated;

alter table public.student_records enable row level security;
alter table public.student_change_requests enable row level security;
alter table public.identity_conflicts enable row level security;

create policy student_records_admin on public.student_records for all to authenticated
  using (public.is_admin()) with check (public.is_admin());
create policy change_requests_admin on public.student_change_requests for all to authenticated
  using (public.is_admin()) with check (public.is_admin());
create policy conflicts_read on public.identity_conflicts for select to authenticated
  using (public.is_admin() or person_id = public.my_person_id());
create policy conflicts_admin_write on public.identity_conflicts for all to authenticated
  using (public.is_admin()) with check (public.is_admin());

grant select, insert, update, delete on public.student_records, public.student_change_requests,
  public.identity_conflicts to authenticated;
grant all on public.student_records, public.student_change_requests, public.identity_conflicts
  to service_role;

create function public.get_my_student_record() returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_id integer := public.my_person_id();
begin
  if (select auth.uid()) is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if v_id is null then
    return jsonb_build_object('record', null, 'requests', '[]'::jsonb);
  end if;
  return jsonb_build_object(
    'record', (select to_jsonb(r) from public.student_records r where r.id = v_id),
    'requests', coalesce((select jsonb_agg(q order by q.created_at desc, q.id desc) from (
        select c.id, c.field, c.requested_value, c.verdict, c.admin_note, c.applied_value, c.created_at
        from public.student_change_requests c where c.record_id = v_id
        order by c.created_at desc, c.id desc limit 10) q), '[]'));
end $$;
grant execute on function public.get_my_student_record() to authenticated;
