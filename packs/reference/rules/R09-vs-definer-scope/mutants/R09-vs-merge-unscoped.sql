-- mutant: R09-vs-merge-unscoped
-- rules: R09
-- bug: merge_vs_tickets looks both tickets up without the handler scope, so a vp_admin merges another department's tickets.
-- in 0200_vs.sql replace:
  select * into d from public.vs_tickets t where t.id = p_duplicate and t.deleted_at is null and public.vs_in_scope(t.target_dept);
-- with:
  select * into d from public.vs_tickets t where t.id = p_duplicate and t.deleted_at is null and public.current_user_is_vs_handler();
-- end
-- in 0200_vs.sql replace:
  select * into p from public.vs_tickets t where t.id = p_primary and t.deleted_at is null and public.vs_in_scope(t.target_dept);
-- with:
  select * into p from public.vs_tickets t where t.id = p_primary and t.deleted_at is null and public.current_user_is_vs_handler();
-- end
