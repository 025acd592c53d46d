-- mutant: R09-vs-find-similar-unscoped
-- rules: R09
-- bug: find_similar_vs_tickets (a definer function) checks that the caller is a handler but not the department of the tickets it returns.
-- in 0200_vs.sql replace:
      and t.deleted_at is null and public.vs_in_scope(t.target_dept);
-- with:
      and t.deleted_at is null;
-- end
