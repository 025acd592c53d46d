-- mutant: R11-team-nodes-select-using-true
-- rules: R11
-- bug: team_nodes' SELECT policy is using (true): every signed-in user reads the whole tree, non-public subtrees included.
-- in 0410_team.sql replace:
create policy team_nodes_staff_read on public.team_nodes for select to authenticated
  using (public.current_user_is_staff());
-- with:
create policy team_nodes_staff_read on public.team_nodes for select to authenticated
  using (true);
-- end
