-- mutant: R14-vs-tracking-ilike
-- rules: R14
-- bug: get_vs_ticket_by_id matches with ilike: % and _ in the id turn the capability into a search.
-- in 0200_vs.sql replace:
  where t.id = p_id and t.deleted_at is null
-- with:
  where t.id ilike p_id and t.deleted_at is null
-- end
