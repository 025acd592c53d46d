-- mutant: LINT01-vs-overview-definer-view
-- rules: LINT01
-- bug: a convenience view over vs_tickets is added without security_invoker and granted to authenticated: it runs with its owner's rights, so every signed-in user reads every ticket (submitter, department, remarks) past the row rules that narrow vs_tickets.
create view public.vs_ticket_overview as select id, submitter_id, target_dept, status, remarks from public.vs_tickets;
revoke all on public.vs_ticket_overview from anon, authenticated;
grant select on public.vs_ticket_overview to authenticated;
