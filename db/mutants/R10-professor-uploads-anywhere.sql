-- mutant: R10-professor-uploads-anywhere
-- rules: R10
-- bug: the signed-file upload policy checks only the professor role, not that a pending request on this project addresses them.
drop policy project_files_professor_upload on public.project_files;
create policy project_files_professor_upload on public.project_files for insert to authenticated
  with check (kind = 'signed' and uploaded_by = auth.uid() and public.current_user_role() = 'sa_prof');
