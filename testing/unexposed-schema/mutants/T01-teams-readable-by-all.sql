-- mutant: teams-readable-by-all
-- rules: T01
-- bug: every signed-in user reads every team, not only its members
drop policy teams_read_by_members on teamkit.teams;
create policy teams_read_by_members on teamkit.teams for select to authenticated using (true);
