-- mutant: R14-vs-tracking-lower-trim
-- rules: R14
-- bug: get_vs_ticket_by_id compares lower(btrim(id)): case-insensitive and trimmed where the spec says exact.
-- in 0200_vs.sql replace:
  where t.id = p_id and t.deleted_at is null
-- with:
  where lower(btrim(t.id)) = lower(btrim(p_id)) and t.deleted_at is null
-- end
