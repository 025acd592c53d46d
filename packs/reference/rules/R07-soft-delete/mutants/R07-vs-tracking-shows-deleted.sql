-- mutant: R07-vs-tracking-shows-deleted
-- rules: R07
-- bug: the guest lookup get_vs_ticket_by_id lacks "deleted_at is null".
-- in 0200_vs.sql replace:
  where t.id = p_id and t.deleted_at is null
-- with:
  where t.id = p_id
-- end
