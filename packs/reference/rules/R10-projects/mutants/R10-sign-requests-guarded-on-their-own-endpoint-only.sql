-- mutant: R10-sign-requests-guarded-on-their-own-endpoint-only
-- rules: R10
-- bug: project_sign_requests' SELECT policy scopes rows only on their own endpoint (request.path = '/project_sign_requests'): embedded in a projects read (select=*,project_sign_requests(*)) every sign request shows. Reachable only through an embed.
-- in 0400_projects.sql replace:
create policy project_sign_requests_read on public.project_sign_requests for select to authenticated
  using (actor_id = auth.uid() or professor_id = auth.uid());
-- with:
create policy project_sign_requests_read on public.project_sign_requests for select to authenticated
  using (actor_id = auth.uid() or professor_id = auth.uid() or current_setting('request.path', true) <> '/project_sign_requests');
-- end
