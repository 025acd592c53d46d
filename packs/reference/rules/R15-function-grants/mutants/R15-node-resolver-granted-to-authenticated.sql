-- mutant: R15-node-resolver-granted-to-authenticated
-- rules: R15
-- bug: the revoke named public and anon but not authenticated, so the default grant to authenticated survived on node_effective_is_public.
-- in 0410_team.sql replace:
revoke execute on function public.node_effective_is_public(uuid), public.effective_team_permissions_for_email(text),
  public.effective_team_vs_dept_for_email(text) from public, anon, authenticated;
-- with:
revoke execute on function public.node_effective_is_public(uuid) from public, anon;
revoke execute on function public.effective_team_permissions_for_email(text),
  public.effective_team_vs_dept_for_email(text) from public, anon, authenticated;
-- end
