-- mutant: R16-team-nodes-default-grant-kept
-- rules: R16
-- bug: the migration never revoked Supabase's default privileges on team_nodes, so anon holds every privilege on it (row rules are the only barrier left).
grant all on table public.team_nodes to anon;
