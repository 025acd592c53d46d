-- mutant: R08-vs-insert-without-role
-- rules: R08
-- bug: the submission check forgot current_user_role() is not null, so a signed-in caller with no users row (no role) files VS tickets.
-- in 0200_vs.sql replace:
  with check (submitter_id = auth.uid() and public.current_user_role() is not null and deleted_at is null
-- with:
  with check (submitter_id = auth.uid() and deleted_at is null
-- end
