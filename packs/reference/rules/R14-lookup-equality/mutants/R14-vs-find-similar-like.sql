-- mutant: R14-vs-find-similar-like
-- rules: R14
-- bug: find_similar_vs_tickets finds the source ticket with like, so a wildcard id lists the tickets similar to any ticket it matches.
-- in 0200_vs.sql replace:
    where s.id = p_id and s.deleted_at is null and public.vs_in_scope(s.target_dept)
-- with:
    where s.id like p_id and s.deleted_at is null and public.vs_in_scope(s.target_dept)
-- end
