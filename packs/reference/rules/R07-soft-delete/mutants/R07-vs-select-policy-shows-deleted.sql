-- mutant: R07-vs-select-policy-shows-deleted
-- rules: R07
-- bug: the SELECT policy of vs_tickets lacks "deleted_at is null": deleted tickets stay readable by their submitter and handlers.
-- in 0200_vs.sql replace:
  using (deleted_at is null and (submitter_id = auth.uid() or public.vs_in_scope(target_dept)));
-- with:
  using (submitter_id = auth.uid() or public.vs_in_scope(target_dept));
-- end
