-- mutant: R07-vs-merge-deleted-duplicate
-- rules: R07
-- bug: merge_vs_tickets looks the duplicate up without "deleted_at is null", so a soft-deleted
--   ticket is still merged (closed, re-pointed, remarks appended) into a live one.
-- in 0200_vs.sql replace:
  select * into d from public.vs_tickets t where t.id = p_duplicate and t.deleted_at is null and public.vs_in_scope(t.target_dept);
-- with:
  select * into d from public.vs_tickets t where t.id = p_duplicate and public.vs_in_scope(t.target_dept);
-- end
