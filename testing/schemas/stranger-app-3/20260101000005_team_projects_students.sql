-- Team tree (text slug ids), members (no public read), projects with a composite foreign key,
-- student records found by e-mail, change requests and identity conflicts.

create table public.team_nodes (
  id text primary key check (id ~ '^[a-z0-9][a-z0-9-]*$'),
  parent_id text references public.team_nodes (id) on delete cascade,
  name text not null,
  kind text not null default 'team' check (kind in ('org', 'division', 'team', 'group')),
  position integer not null default 0,
  is_public boolean not null default true,
  check (parent_id is distinct from id)
);

create table public.team_members (
  id uuid primary key default gen_random_uuid(),
  node_id text not null references public.team_nodes (id) on delete cascade,
  user_id uuid references public.users (id) on delete set null,
  name text not null,
  nickname text,
  position text,
  kkumail public.email_address,
  student_id text check (student_id ~ '^[0-9]{8,10}$'),
  year smallint check (year between 1 and 8),
  major text,
  permissions text[] not null default '{}',
  vs_dept text,
  project_seat text
);
create unique index team_members_node_mail_key on public.team_members (node_id, lower(kkumail::text));

grant select on public.team_nodes to anon, authenticated;
grant select, insert, update, delete on public.team_members, public.team_nodes to authenticated;
grant all on public.team_nodes, public.team_members to service_role;
revoke all on public.team_members from anon;
alter table public.team_nodes enable row level security;
alter table public.team_members enable row level security;

create policy team_nodes_read on public.team_nodes for select to authenticated
  using (private.is_admin());
create policy team_nodes_write on public.team_nodes for all to authenticated
  using (private.is_admin()) with check (private.is_admin());
create policy team_members_admin on public.team_members for all to authenticated
  using (private.is_admin()) with check (private.is_admin());

-- A node is shown when it and every ancestor are public (rule 11).
create function private.node_effective_is_public(p_node text) returns boolean
language sql stable security definer set search_path = ''
as $$
  with recursive up as (
    select n.id, n.parent_id, n.is_public, 1 as depth from public.team_nodes n where n.id = p_node
    union all
    select n.id, n.parent_id, n.is_public, up.depth + 1
    from public.team_nodes n join up on n.id = up.parent_id where up.depth < 64
  )
  select coalesce(bool_and(up.is_public), false) from up
$$;

create function private.effective_team_permissions_for_email(p_email text) returns text[]
language sql stable security definer set search_path = ''
as $$
  select coalesce(array_agg(distinct p order by p), '{}')
  from public.team_members m, unnest(m.permissions) p
  where lower(m.kkumail::text) = lower(p_email)
$$;

create function private.effective_team_vs_dept_for_email(p_email text) returns text
language sql stable security definer set search_path = ''
as $$
  select m.vs_dept from public.team_members m
  where lower(m.kkumail::text) = lower(p_email) and m.vs_dept is not null
  order by m.id limit 1
$$;

create function public.get_public_org_chart() returns json
language sql stable security definer set search_path = ''
as $$
  select json_build_object(
    'nodes', coalesce((select json_agg(json_build_object('id', n.id, 'parent_id', n.parent_id,
                         'name', n.name, 'kind', n.kind, 'position', n.position)
                         order by n.position, n.id)
                       from public.team_nodes n where private.node_effective_is_public(n.id)), '[]'::json),
    'members', coalesce((select json_agg(json_build_object('node_id', m.node_id, 'name', m.name,
                           'nickname', m.nickname, 'position', m.position)
                           order by m.node_id, m.name, m.id)
                         from public.team_members m
                         where private.node_effective_is_public(m.node_id)), '[]'::json))
$$;

create function public.sync_my_team_permissions()
returns table (permissions text[], vs_dept text)
language plpgsql security definer set search_path = ''
as $$
declare
  mail text;
  perms text[];
  dept text;
begin
  if auth.uid() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select u.email::text into mail from public.users u where u.id = auth.uid();
  if mail is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  perms := private.effective_team_permissions_for_email(mail);
  dept := private.effective_team_vs_dept_for_email(mail);
  perform set_config('app.trusted_write', 'on', true);
  update public.users u set managed_permissions = perms where u.id = auth.uid();
  perform set_config('app.trusted_write', '', true);
  return query select perms, dept;
end $$;

revoke execute on function public.sync_my_team_permissions() from public, anon;
revoke execute on function public.get_public_org_chart() from public;
grant execute on function public.get_public_org_chart() to anon, authenticated;

-- ---------------------------------------------------------------------------------------------
create table public.projects (
  id uuid primary key default gen_random_uuid(),
  title text not null,
  owner_id uuid not null default auth.uid() references public.users (id),
  created_at timestamptz not null default now()
);
create table public.project_documents (
  id uuid not null default gen_random_uuid(),
  project_id uuid not null references public.projects (id) on delete cascade,
  title text not null default '',
  body text,
  primary key (id),
  unique (project_id, id)
);
-- A file's document belongs to the same project: a composite foreign key.
create table public.project_files (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null,
  document_id uuid not null,
  path text not null check (path !~ '\.\.'),
  uploaded_by uuid not null default auth.uid() references public.users (id),
  created_at timestamptz not null default now(),
  foreign key (project_id, document_id) references public.project_documents (project_id, id)
    on delete cascade
);
create table public.project_sign_requests (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references public.projects (id) on delete cascade,
  document_id uuid,
  actor_id uuid not null references public.users (id),
  professor_id uuid not null references public.users (id),
  status text not null default 'pending' check (status in ('pending', 'signed', 'declined')),
  created_at timestamptz not null default now()
);
create table public.project_settings (
  id boolean primary key default true check (id),
  settings jsonb not null default '{}'
);

grant select on public.projects, public.project_documents, public.project_files to anon, authenticated;
grant insert on public.project_files to authenticated;
grant select on public.project_sign_requests, public.project_settings to authenticated;
grant all on public.projects, public.project_documents, public.project_files,
  public.project_sign_requests, public.project_settings to service_role;
revoke all on public.project_sign_requests, public.project_settings from anon;
revoke insert, update, delete on public.projects, public.project_documents from anon, authenticated;
revoke insert, update, delete on public.project_sign_requests, public.project_settings from authenticated;

alter table public.projects enable row level security;
alter table public.project_documents enable row level security;
alter table public.project_files enable row level security;
alter table public.project_sign_requests enable row level security;
alter table public.project_settings enable row level security;

create policy projects_read on public.projects for select to anon, authenticated using (true);
create policy project_documents_read on public.project_documents for select to anon, authenticated using (true);
create policy project_files_read on public.project_files for select to anon, authenticated using (true);
create policy project_sign_requests_read on public.project_sign_requests for select to authenticated
  using (actor_id = (select auth.uid()) or professor_id = (select auth.uid()));
create policy project_settings_read on public.project_settings for select to authenticated
  using (public.current_user_is_staff());

create function private.is_addressed_professor(p_project uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select public.current_user_role() = 'sa_prof' and exists (
    select 1 from public.project_sign_requests r
    where r.project_id = p_project and r.professor_id = auth.uid())
$$;
create policy project_files_professor_upload on public.project_files for insert to authenticated
  with check (uploaded_by = (select auth.uid()) and coalesce(private.is_addressed_professor(project_id), false));

create function public.current_user_is_project_actor() returns boolean
language sql stable security definer set search_path = ''
as $$
  select auth.uid() is not null and (
    exists (select 1 from public.projects p where p.owner_id = auth.uid())
    or exists (select 1 from public.project_sign_requests r where r.actor_id = auth.uid()))
$$;

-- ---------------------------------------------------------------------------------------------
create table public.student_records (
  id uuid primary key default gen_random_uuid(),
  email public.email_address not null,
  student_no text check (student_no ~ '^[0-9]{8,10}$'),
  full_name text not null default '',
  faculty text,
  year smallint check (year between 1 and 8),
  created_at timestamptz not null default now()
);
create unique index student_records_email_key on public.student_records (lower(email::text));

create table public.student_change_requests (
  id uuid primary key default gen_random_uuid(),
  student_id uuid not null references public.student_records (id) on delete cascade,
  field text not null,
  requested_value text,
  verdict text not null default 'pending' check (verdict in ('pending', 'approved', 'rejected')),
  admin_note text,
  applied_value text,
  created_at timestamptz not null default now(),
  check (verdict = 'approved' or applied_value is null)
);

create table public.identity_conflicts (
  id uuid primary key default gen_random_uuid(),
  person_id uuid not null references public.student_records (id) on delete cascade,
  details text,
  created_at timestamptz not null default now()
);

grant select, insert, update, delete on public.student_records, public.student_change_requests,
  public.identity_conflicts to authenticated;
grant all on public.student_records, public.student_change_requests, public.identity_conflicts
  to service_role;
revoke all on public.student_records, public.student_change_requests, public.identity_conflicts from anon;
alter table public.student_records enable row level security;
alter table public.student_change_requests enable row level security;
alter table public.identity_conflicts enable row level security;

create function public.my_person_id() returns uuid
language sql stable security definer set search_path = ''
as $$
  select s.id from public.student_records s join public.users u on lower(u.email::text) = lower(s.email::text)
  where u.id = auth.uid()
$$;

create policy student_records_admin on public.student_records for all to authenticated
  using (private.can_manage_students()) with check (private.can_manage_students());
create policy student_change_requests_admin on public.student_change_requests for all to authenticated
  using (private.can_manage_students()) with check (private.can_manage_students());
create policy identity_conflicts_read on public.identity_conflicts for select to authenticated
  using (private.can_manage_students() or person_id = public.my_person_id());
create policy identity_conflicts_write on public.identity_conflicts for all to authenticated
  using (private.can_manage_students()) with check (private.can_manage_students());

create function public.get_my_student_record() returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
declare
  pid uuid;
begin
  if auth.uid() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  pid := public.my_person_id();
  return jsonb_build_object(
    'record', (select to_jsonb(s) from public.student_records s where s.id = pid),
    'requests', coalesce((select jsonb_agg(to_jsonb(r) - 'student_id' order by r.created_at desc, r.id)
                          from (select * from public.student_change_requests c
                                where c.student_id = pid
                                order by c.created_at desc, c.id limit 10) r), '[]'::jsonb));
end $$;

revoke execute on function public.get_my_student_record() from public, anon;

-- trusted_write() is left out: only the definer guards call it, as their owner (rule 15).
revoke execute on all functions in schema private from public, anon, authenticated;
grant execute on function private.is_admin(), private.can_handle_vs(text), private.can_handle_pr(),
  private.can_manage_shop(), private.can_manage_students(),
  private.is_addressed_professor(uuid) to anon, authenticated;
