-- mutant: R10-professor-upload-any-uploader
-- rules: R10
-- bug: the signed-file upload policy never checks uploaded_by, so an addressed professor files a signed upload in someone else's name (or no one's).
-- in 0400_projects.sql replace:
  with check (kind = 'signed' and uploaded_by = auth.uid() and public.current_user_is_addressed_professor(project_id));
-- with:
  with check (kind = 'signed' and public.current_user_is_addressed_professor(project_id));
-- end
