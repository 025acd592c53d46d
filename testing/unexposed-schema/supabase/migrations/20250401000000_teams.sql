-- Teams kept in a schema the API does not expose (config.toml lists only public), reached by
-- clients only through functions; their row security still decides what those functions and
-- any direct SQL as `authenticated` see. A re-creation of a starter kit's pattern, in our words.
create schema teamkit;
grant usage on schema teamkit to authenticated, service_role;

create table teamkit.teams (
  id uuid primary key default gen_random_uuid(),
  name text not null default ''
);

create table teamkit.team_members (
  team_id uuid not null references teamkit.teams (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  team_role text not null check (team_role in ('owner', 'member')),
  primary key (team_id, user_id)
);

alter table teamkit.teams enable row level security;
alter table teamkit.team_members enable row level security;
grant select, insert, update, delete on teamkit.teams, teamkit.team_members to authenticated, service_role;

-- A definer helper, so the members policy can read memberships without recursing into itself.
create function teamkit.has_role_on_team(p_team uuid, p_role text default null) returns boolean
  language sql stable security definer set search_path = '' as $$
  select exists (select 1 from teamkit.team_members m
                  where m.team_id = p_team and m.user_id = auth.uid() and (p_role is null or m.team_role = p_role))
$$;
revoke execute on function teamkit.has_role_on_team(uuid, text) from public, anon;
grant execute on function teamkit.has_role_on_team(uuid, text) to authenticated;

create policy teams_read_by_members on teamkit.teams for select to authenticated
  using (teamkit.has_role_on_team(id));
create policy members_read_by_teammates on teamkit.team_members for select to authenticated
  using (teamkit.has_role_on_team(team_id));
create policy members_removed_by_owners on teamkit.team_members for delete to authenticated
  using (teamkit.has_role_on_team(team_id, 'owner'));

-- The accessor clients call (an invoker function: the caller's row security applies).
create function public.my_teams() returns setof teamkit.teams
  language sql stable security invoker set search_path = '' as $$ select * from teamkit.teams $$;
revoke execute on function public.my_teams() from public, anon;
grant execute on function public.my_teams() to authenticated;

-- Team logos in Storage: a policy on Supabase's own table, reached through the Storage API.
create policy team_logos_read_by_members on storage.objects for select to authenticated
  using (bucket_id = 'team-logos' and teamkit.has_role_on_team(((storage.foldername(name))[1])::uuid));
