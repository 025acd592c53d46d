-- mutant: R10-sign-request-upsert-reopens
-- rules: R10
-- bug: sign requests were made updatable by their addressed professor (an UPDATE grant and policy added for a "mark as read" feature), so a professor upserts a declined or signed request back to pending and may then upload signed files to that project again. The reference grants no UPDATE on sign requests (spec rule 10 speaks of reads and INSERTs only) and the pack never PATCHes them: its generators reach this UPDATE policy only through an upsert (POST with resolution=merge-duplicates), which a PATCH by the professor would reach as well.
-- in 0400_projects.sql replace:
grant select, insert on table public.project_sign_requests to authenticated;
-- with:
grant select, insert, update on table public.project_sign_requests to authenticated;
create policy project_sign_requests_professor_update on public.project_sign_requests for update to authenticated
  using (professor_id = auth.uid()) with check (professor_id = auth.uid());
-- end
