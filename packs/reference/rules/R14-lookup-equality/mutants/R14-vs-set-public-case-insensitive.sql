-- mutant: R14-vs-set-public-case-insensitive
-- rules: R14
-- bug: vs_set_public compares lower(id) = lower(p_id), so a case-flipped id publishes or withdraws another spelling's ticket.
-- in 0200_vs.sql replace:
  select * into t from public.vs_tickets x where x.id = p_id and x.deleted_at is null and public.vs_in_scope(x.target_dept);
-- with:
  select * into t from public.vs_tickets x where lower(x.id) = lower(p_id) and x.deleted_at is null and public.vs_in_scope(x.target_dept);
-- end
