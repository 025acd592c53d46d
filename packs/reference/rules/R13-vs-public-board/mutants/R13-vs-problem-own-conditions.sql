-- mutant: R13-vs-problem-own-conditions
-- rules: R13, R08
-- bug: get_public_vs_problem repeats the board conditions inline and forgot the category: a problem in an unknown or confidential category opens by its ref.
-- in 0200_vs.sql replace:
  from public.vs_tickets t where t.public_ref = p_ref and private.vs_on_board(t)
-- with:
  from public.vs_tickets t where t.public_ref = p_ref and t.deleted_at is null and t.is_public and btrim(coalesce(t.public_title, '')) <> ''
-- end
