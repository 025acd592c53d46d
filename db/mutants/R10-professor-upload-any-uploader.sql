-- mutant: R10-professor-upload-any-uploader
-- rules: R10
-- bug: the signed-file upload policy never checks uploaded_by, so an addressed professor files a signed upload in someone else's name (or no one's).
drop policy project_files_professor_upload on public.project_files;
create policy project_files_professor_upload on public.project_files for insert to authenticated
  with check (kind = 'signed' and public.current_user_is_addressed_professor(project_id));
