-- mutant: R05-pr-select-lets-on-behalf-read
-- rules: R05
-- bug: to make return=representation work for on-behalf filing, the SELECT rule was widened to the on-behalf roles, who now read every ticket.
-- in 0300_pr_tickets.sql replace:
create policy pr_tickets_select on public.pr_tickets for select to authenticated
  using (
    deleted_at is null
    and (submitter_id = auth.uid()
         or public.current_user_is_pr_handler())
-- with:
create policy pr_tickets_select on public.pr_tickets for select to authenticated
  using (
    deleted_at is null
    and (submitter_id = auth.uid()
         or public.current_user_is_pr_handler() or public.current_user_role() in ('uni_staff', 'sa_prof'))
-- end
