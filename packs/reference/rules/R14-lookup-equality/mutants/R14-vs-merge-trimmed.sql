-- mutant: R14-vs-merge-trimmed
-- rules: R14
-- bug: merge_vs_tickets trims and lower-cases the duplicate's id, so a padded or case-flipped id merges a ticket it does not name.
-- in 0200_vs.sql replace:
  select * into d from public.vs_tickets t where t.id = p_duplicate and t.deleted_at is null and public.vs_in_scope(t.target_dept);
-- with:
  select * into d from public.vs_tickets t where lower(btrim(t.id)) = lower(btrim(p_duplicate)) and t.deleted_at is null and public.vs_in_scope(t.target_dept);
-- end
