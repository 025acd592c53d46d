-- mutant: R11-team-members-select-using-true
-- rules: R11
-- bug: team_members' SELECT policy is using (true): every signed-in user reads members' e-mails, student ids and seats.
-- in 0410_team.sql replace:
create policy team_members_staff_read on public.team_members for select to authenticated
  using (public.current_user_is_staff());
-- with:
create policy team_members_staff_read on public.team_members for select to authenticated
  using (true);
-- end
