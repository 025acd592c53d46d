-- mutant: R07-select-policy-shows-deleted
-- rules: R07
-- bug: the SELECT rule lost "deleted_at is null", so submitters and handlers keep reading soft-deleted tickets through GET.
-- in 0300_pr_tickets.sql replace:
create policy pr_tickets_select on public.pr_tickets for select to authenticated
  using (
    deleted_at is null
    and (submitter_id = auth.uid()
-- with:
create policy pr_tickets_select on public.pr_tickets for select to authenticated
  using (
    (submitter_id = auth.uid()
-- end
