-- mutant: R10-project-sign-requests-select-using-true
-- rules: R10
-- bug: project_sign_requests' SELECT policy is using (true): every signed-in user (every professor) reads every sign request.
-- in 0400_projects.sql replace:
create policy project_sign_requests_read on public.project_sign_requests for select to authenticated
  using (actor_id = auth.uid() or professor_id = auth.uid());
-- with:
create policy project_sign_requests_read on public.project_sign_requests for select to authenticated
  using (true);
-- end
