-- mutant: R10-professor-sees-every-sign-request
-- rules: R10
-- bug: per-recipient scoping checks the professor role instead of the addressed professor, so every professor sees every request.
-- in 0400_projects.sql replace:
  using (actor_id = auth.uid() or professor_id = auth.uid());
-- with:
  using (actor_id = auth.uid() or public.current_user_role() = 'sa_prof');
-- end
