-- mutant: R07-patch-sets-deleted-at
-- rules: R07
-- bug: the UPDATE rule no longer keeps deleted_at null, so a handler soft-deletes with a plain PATCH of deleted_at, skipping the function's checks.
-- in 0300_pr_tickets.sql replace:
  with check (
    deleted_at is null
    and (submitter_id = auth.uid()
-- with:
  with check (
    (submitter_id = auth.uid()
-- end
