-- mutant: R13-vs-board-publishes-report
-- rules: R13
-- bug: the board falls back to the raw report when the headline is missing, publishing the student's words verbatim.
create or replace function public.get_public_vs_board()
returns table (public_ref text, public_title text, category text, status text, target_dept text)
language sql stable security definer set search_path = ''
as $$
  select t.public_ref, coalesce(nullif(btrim(t.public_title), ''), t.report), t.category, t.status, t.target_dept
  from public.vs_tickets t where t.deleted_at is null and t.is_public and private.vs_category_public(t.category)
$$;
