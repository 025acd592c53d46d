-- mutant: R07-vs-select-policy-shows-deleted
-- rules: R07
-- bug: the SELECT policy of vs_tickets lacks "deleted_at is null": deleted tickets stay readable by their submitter and handlers.
drop policy vs_tickets_select on public.vs_tickets;
create policy vs_tickets_select on public.vs_tickets for select to authenticated
  using (submitter_id = auth.uid() or public.vs_in_scope(target_dept));
