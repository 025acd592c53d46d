-- mutant: R03-vs-tickets-select-using-true
-- rules: R03
-- bug: vs_tickets' SELECT policy is using (true): every signed-in user reads every ticket, its reporter, remarks and tags.
-- in 0200_vs.sql replace:
create policy vs_tickets_select on public.vs_tickets for select to authenticated
  using (deleted_at is null and (submitter_id = auth.uid() or public.vs_in_scope(target_dept)));
-- with:
create policy vs_tickets_select on public.vs_tickets for select to authenticated
  using (true);
-- end
