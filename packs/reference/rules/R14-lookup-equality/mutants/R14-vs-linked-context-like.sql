-- mutant: R14-vs-linked-context-like
-- rules: R14
-- bug: get_vs_linked_context finds the submitter's ticket with like.
-- in 0200_vs.sql replace:
  where d.id = p_id and d.deleted_at is null and private.vs_on_board(p)
-- with:
  where d.id like p_id and d.deleted_at is null and private.vs_on_board(p)
-- end
