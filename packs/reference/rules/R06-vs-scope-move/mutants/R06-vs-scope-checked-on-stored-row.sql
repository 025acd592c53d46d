-- mutant: R06-vs-scope-checked-on-stored-row
-- rules: R06
-- bug: the SELECT and UPDATE policies ask a definer helper "may the caller see ticket <id>?", which reads the stored row: checking the new row of an UPDATE then reads the old department, so a filtered PATCH moves a ticket out of the handler's scope.
-- in 0200_vs.sql replace:
create policy vs_tickets_select on public.vs_tickets for select to authenticated
  using (deleted_at is null and (submitter_id = auth.uid() or public.vs_in_scope(target_dept)));
-- with:
create or replace function public.vs_ticket_visible(p_id text) returns boolean
language sql stable security definer set search_path = ''
as $$ select exists (select 1 from public.vs_tickets t where t.id = p_id and t.deleted_at is null
                      and (t.submitter_id = auth.uid() or public.vs_in_scope(t.target_dept))) $$;
create policy vs_tickets_select on public.vs_tickets for select to authenticated
  using (deleted_at is null and public.vs_ticket_visible(id));
-- end
-- in 0200_vs.sql replace:
  with check (deleted_at is null and (submitter_id = auth.uid() or public.vs_in_scope(target_dept)));
-- with:
  with check (deleted_at is null and public.vs_ticket_visible(id));
-- end
