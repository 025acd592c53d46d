-- mutant: R07-select-policy-shows-deleted
-- rules: R07
-- bug: the SELECT rule lost "deleted_at is null", so submitters and handlers keep reading soft-deleted tickets through GET.
alter policy pr_tickets_select on public.pr_tickets
  using (submitter_id = auth.uid() or public.current_user_is_pr_handler());
