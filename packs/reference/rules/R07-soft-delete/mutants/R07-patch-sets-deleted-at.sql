-- mutant: R07-patch-sets-deleted-at
-- rules: R07
-- bug: the UPDATE rule no longer keeps deleted_at null, so a handler soft-deletes with a plain PATCH of deleted_at, skipping the function's checks.
-- unreachable: every PATCH Supabase accepts has a filter (pg-safeupdate), and a filtered UPDATE checks the new row against the SELECT policy too, which keeps "deleted_at is null"; only the UPDATE policy's WITH CHECK lost it, so no REST request can soft-delete this way.
-- in 0300_pr_tickets.sql replace:
  with check (
    deleted_at is null
    and (submitter_id = auth.uid()
-- with:
  with check (
    (submitter_id = auth.uid()
-- end
