-- mutant: R06-vs-update-check-drops-scope
-- rules: R06
-- bug: the UPDATE policy's WITH CHECK only re-checks that the ticket is not deleted, so a vp_admin can PATCH a ticket into another department.
-- in 0200_vs.sql replace:
  with check (deleted_at is null and (submitter_id = auth.uid() or public.vs_in_scope(target_dept)));
-- with:
  with check (deleted_at is null);
-- end
