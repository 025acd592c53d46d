-- mutant: R11-team-members-public-read
-- rules: R11
-- bug: a "public profile" policy was added to team_members for anon, exposing every member row with e-mail and student id.
create policy team_members_public_read on public.team_members for select to anon using (true);
