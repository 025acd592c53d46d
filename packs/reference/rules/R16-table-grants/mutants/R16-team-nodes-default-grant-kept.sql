-- mutant: R16-team-nodes-default-grant-kept
-- rules: R16
-- bug: the migration never revoked Supabase's default privileges on team_nodes, so anon holds every privilege on it (row rules are the only barrier left).
-- in 0410_team.sql replace:
revoke all on table public.team_nodes, public.team_members from anon, authenticated;
-- with:
revoke all on table public.team_nodes from authenticated;
revoke all on table public.team_members from anon, authenticated;
-- end
