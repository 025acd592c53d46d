-- mutant: R13-vs-board-publishes-report
-- rules: R13
-- bug: the board falls back to the raw report when the headline is missing, publishing the student's words verbatim.
-- in 0200_vs.sql replace:
  select t.public_ref, t.public_title, t.category, t.status, t.target_dept
  from public.vs_tickets t where private.vs_on_board(t)
-- with:
  select t.public_ref, coalesce(nullif(btrim(t.public_title), ''), t.report), t.category, t.status, t.target_dept
  from public.vs_tickets t where t.deleted_at is null and t.is_public and private.vs_category_public(t.category)
-- end
