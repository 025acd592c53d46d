-- mutant: R05-pr-tickets-select-using-true
-- rules: R05
-- bug: pr_tickets' SELECT policy is using (true): every signed-in user reads everyone's PR requests.
-- in 0300_pr_tickets.sql replace:
create policy pr_tickets_select on public.pr_tickets for select to authenticated
  using (
    deleted_at is null
    and (submitter_id = auth.uid()
         or public.current_user_is_pr_handler())
  );
-- with:
create policy pr_tickets_select on public.pr_tickets for select to authenticated
  using (true);
-- end
