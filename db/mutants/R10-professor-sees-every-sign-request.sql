-- mutant: R10-professor-sees-every-sign-request
-- rules: R10
-- bug: per-recipient scoping checks the professor role instead of the addressed professor, so every professor sees every request.
drop policy project_sign_requests_read on public.project_sign_requests;
create policy project_sign_requests_read on public.project_sign_requests for select to authenticated
  using (actor_id = auth.uid() or public.current_user_role() = 'sa_prof');
