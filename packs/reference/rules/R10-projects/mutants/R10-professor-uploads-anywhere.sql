-- mutant: R10-professor-uploads-anywhere
-- rules: R10
-- bug: the signed-file upload policy checks only the professor role, not that a pending request on this project addresses them.
-- in 0400_projects.sql replace:
  with check (kind = 'signed' and uploaded_by = auth.uid() and public.current_user_is_addressed_professor(project_id));
-- with:
  with check (kind = 'signed' and uploaded_by = auth.uid() and public.current_user_role() = 'sa_prof');
-- end
