-- Team tree and membership (spec §2, §4.2; rules 11 and 15). team_members holds personal data
-- (kkumail-type e-mail, student id, year, major, permissions, vs_dept, project seat, user id):
-- anon has SELECT but no row rule, so anon reads zero rows; staff read all. The public tree is
-- only get_public_org_chart: a node is shown when it and every ancestor are public, with the
-- allowed keys only. The resolvers that answer questions about another person
-- (effective_team_*_for_email, node_effective_*) keep no grant to anon, authenticated or public.
create table public.team_nodes (
  id uuid primary key default gen_random_uuid(),
  parent_id uuid references public.team_nodes (id) on delete cascade,
  name text not null,
  kind text not null default 'team',
  position integer not null default 0,
  is_public boolean not null default false
);

create table public.team_members (
  id uuid primary key default gen_random_uuid(),
  node_id uuid not null references public.team_nodes (id) on delete cascade,
  name text not null,
  nickname text,
  position text,
  email text not null,
  student_id text,
  year integer,
  major text,
  permissions text[] not null default '{}',
  vs_dept text,
  project_seat text,
  user_id uuid references auth.users (id) on delete set null
);

-- Is this node shown publicly: it and every ancestor are public (a missing node is not).
create or replace function public.node_effective_is_public(p_node_id uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  with recursive chain (id, parent_id, is_public, depth) as (
    select n.id, n.parent_id, n.is_public, 0 from public.team_nodes n where n.id = p_node_id
    union all
    select p.id, p.parent_id, p.is_public, c.depth + 1
      from public.team_nodes p join chain c on p.id = c.parent_id
     where c.depth < 1000
  )
  select coalesce(bool_and(is_public), false) from chain
$$;

-- The team permissions of whoever holds this e-mail (union over their memberships).
create or replace function public.effective_team_permissions_for_email(p_email text) returns text[]
language sql stable security definer set search_path = ''
as $$
  select coalesce(array_agg(distinct p order by p), '{}')
    from public.team_members m, unnest(m.permissions) p
   where lower(trim(m.email)) = lower(trim(p_email))
$$;

-- The VS department of whoever holds this e-mail (the smallest when memberships disagree).
create or replace function public.effective_team_vs_dept_for_email(p_email text) returns text
language sql stable security definer set search_path = ''
as $$
  select min(m.vs_dept) from public.team_members m where lower(trim(m.email)) = lower(trim(p_email))
$$;

-- Rule 15: the resolvers answer about another person: no grant to anon, authenticated or
-- public (service_role keeps the grant Supabase's defaults gave it).
revoke execute on function public.node_effective_is_public(uuid), public.effective_team_permissions_for_email(text),
  public.effective_team_vs_dept_for_email(text) from public, anon, authenticated;

create or replace function public.get_public_org_chart() returns jsonb
language sql stable security definer set search_path = ''
as $$
  with visible as (
    select n.id, n.parent_id, n.name, n.kind, n.position from public.team_nodes n
     where public.node_effective_is_public(n.id)
  )
  select jsonb_build_object(
    'nodes', coalesce((
      select jsonb_agg(jsonb_build_object('id', v.id, 'parent_id', v.parent_id, 'name', v.name, 'kind', v.kind, 'position', v.position)
                       order by v.position, v.id)
        from visible v), '[]'::jsonb),
    'members', coalesce((
      select jsonb_agg(jsonb_build_object('node_id', m.node_id, 'name', m.name, 'nickname', m.nickname, 'position', m.position)
                       order by m.node_id, m.id)
        from public.team_members m join visible v on v.id = m.node_id), '[]'::jsonb)
  )
$$;

-- Resolves the caller's own team permissions from who they are: the e-mail of their auth
-- identity (auth.users, not editable through the API), never a column they can edit.
create or replace function public.sync_my_team_permissions() returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_email text;
begin
  if auth.uid() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  select a.email into v_email from auth.users a where a.id = auth.uid();
  return jsonb_build_object(
    'permissions', to_jsonb(public.effective_team_permissions_for_email(v_email)),
    'vs_dept', public.effective_team_vs_dept_for_email(v_email)
  );
end
$$;

revoke execute on function public.get_public_org_chart(), public.sync_my_team_permissions() from public, anon, authenticated;
grant execute on function public.get_public_org_chart() to anon, authenticated;
grant execute on function public.sync_my_team_permissions() to authenticated;

-- Rule 16: explicit grants. anon may SELECT team_members but no rule shows it a row.
revoke all on table public.team_nodes, public.team_members from anon, authenticated;
grant select on table public.team_nodes to authenticated;
grant select on table public.team_members to anon, authenticated;

alter table public.team_nodes enable row level security;
alter table public.team_members enable row level security;

create policy team_nodes_staff_read on public.team_nodes for select to authenticated
  using (public.current_user_is_staff());
create policy team_members_staff_read on public.team_members for select to authenticated
  using (public.current_user_is_staff());
