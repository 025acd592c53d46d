-- mutant: R15-resolver-revoke-skips-authenticated
-- rules: R15
-- bug: the revoke names public and anon but not authenticated, so Supabase's default EXECUTE lets every signed-in caller resolve another person's team permissions and department.
-- in 0410_team.sql replace:
  public.effective_team_vs_dept_for_email(text) from public, anon, authenticated;
-- with:
  public.effective_team_vs_dept_for_email(text) from public, anon;
-- end
