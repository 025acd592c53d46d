-- mutant: R15-resolver-revoke-missing
-- rules: R15
-- bug: a later migration recreated effective_team_permissions_for_email with drop/create, and Supabase's defaults gave anon and authenticated EXECUTE again: anyone can ask for another person's permissions.
-- in 0410_team.sql replace:
revoke execute on function public.node_effective_is_public(uuid), public.effective_team_permissions_for_email(text),
  public.effective_team_vs_dept_for_email(text) from public, anon, authenticated;
-- with:
revoke execute on function public.node_effective_is_public(uuid),
  public.effective_team_vs_dept_for_email(text) from public, anon, authenticated;
-- end
