-- mutant: R07-patch-sets-deleted-at
-- rules: R07
-- bug: the UPDATE rule no longer keeps deleted_at null, so a handler soft-deletes with a plain PATCH of deleted_at, skipping the function's checks.
alter policy pr_tickets_update on public.pr_tickets
  using (deleted_at is null and (submitter_id = auth.uid() or public.current_user_is_pr_handler()))
  with check (submitter_id = auth.uid() or public.current_user_is_pr_handler());
