-- The team tree and its members.

create table public.team_nodes (
  id        bigint generated always as identity primary key,
  parent_id bigint references public.team_nodes (id) on delete restrict
              deferrable initially deferred,
  name      text not null,
  kind      public.team_node_kind not null,
  position  integer not null default 0,
  is_public boolean not null default false,
  constraint team_nodes_not_own_parent check (parent_id is null or parent_id <> id),
  constraint team_nodes_position_non_negative check (position >= 0),
  constraint team_nodes_sibling_position unique nulls not distinct (parent_id, position)
    deferrable initially deferred
);

alter table public.team_nodes enable row level security;

create policy "staff read the team tree"
  on public.team_nodes for select to authenticated
  using ((select public.current_user_is_staff()));

create policy "admins manage the team tree"
  on public.team_nodes for all to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

create table public.team_members (
  node_id        bigint not null references public.team_nodes (id) on delete cascade,
  kkumail        extensions.citext not null,
  user_id        uuid references public.users (id) on delete set null,
  name           text not null,
  nickname       text,
  position       text,
  student_id     text,
  year           smallint,
  major          text,
  permissions    public.app_permission[] not null default '{}',
  vs_dept        text references public.departments (code) on delete restrict,
  project_seat   text,
  primary key (node_id, kkumail),
  constraint team_members_kkumail_domain check (kkumail ~ '@kkumail\.com$'),
  constraint team_members_student_id_format check (student_id is null or student_id ~ '^[0-9]{9}-[0-9]$'),
  constraint team_members_year_range check (year is null or year between 1 and 8)
);

create index team_members_user_idx on public.team_members (user_id);

alter table public.team_members enable row level security;

-- Rule 11: no anon policy at all. Members read their own rows; staff read all.
create policy "members read their own membership"
  on public.team_members for select to authenticated
  using (user_id = (select auth.uid()));

create policy "staff read members"
  on public.team_members for select to authenticated
  using ((select public.current_user_is_staff()));

create policy "admins manage members"
  on public.team_members for all to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

revoke all on public.team_members from anon;

-- Public org chart: public nodes whose every ancestor is public; members without private fields.
create or replace function public.get_public_org_chart()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with recursive visible as (
    select n.id, n.parent_id, n.name, n.kind, n.position
      from public.team_nodes n
     where n.parent_id is null and n.is_public
    union all
    select c.id, c.parent_id, c.name, c.kind, c.position
      from public.team_nodes c
      join visible v on c.parent_id = v.id
     where c.is_public
  )
  select jsonb_build_object(
    'nodes', coalesce((select jsonb_agg(jsonb_build_object(
                 'id', v.id, 'parent_id', v.parent_id, 'name', v.name, 'kind', v.kind,
                 'position', v.position) order by v.parent_id nulls first, v.position)
               from visible v), '[]'::jsonb),
    'members', coalesce((select jsonb_agg(jsonb_build_object(
                 'node_id', m.node_id, 'name', m.name, 'nickname', m.nickname,
                 'position', m.position) order by m.node_id, m.name)
               from public.team_members m join visible v on v.id = m.node_id), '[]'::jsonb)
  );
$$;

-- Private resolvers (rule 15): never executable by the API roles.
create or replace function public.effective_team_permissions_for_email(p_email text)
returns public.app_permission[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(distinct p), '{}')
    from public.team_members m, unnest(m.permissions) p
   where m.kkumail = p_email::extensions.citext;
$$;

create or replace function public.node_effective_public(p_node_id bigint)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  with recursive up as (
    select n.id, n.parent_id, n.is_public from public.team_nodes n where n.id = p_node_id
    union all
    select p.id, p.parent_id, p.is_public from public.team_nodes p join up on p.id = up.parent_id
  )
  select coalesce(bool_and(is_public), false) from up;
$$;

-- The caller's own team permissions become their managed permissions.
create or replace function public.sync_my_team_permissions()
returns public.app_permission[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text;
  v_permissions public.app_permission[];
begin
  if auth.uid() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select u.email into v_email from public.users u where u.id = auth.uid();
  if v_email is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.team_members m set user_id = auth.uid()
   where m.kkumail = v_email::extensions.citext and m.user_id is null;
  v_permissions := public.effective_team_permissions_for_email(v_email);
  update public.users u set managed_permissions = v_permissions where u.id = auth.uid();
  return v_permissions;
end;
$$;
