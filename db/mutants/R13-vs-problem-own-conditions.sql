-- mutant: R13-vs-problem-own-conditions
-- rules: R13, R08
-- bug: get_public_vs_problem repeats the board conditions inline and forgot the category: a problem in an unknown or confidential category opens by its ref.
create or replace function public.get_public_vs_problem(p_ref text)
returns table (public_ref text, public_title text, category text, status text, target_dept text, comments jsonb)
language sql stable security definer set search_path = ''
as $$
  select t.public_ref, t.public_title, t.category, t.status, t.target_dept, t.public_comments
  from public.vs_tickets t where t.public_ref = p_ref and t.deleted_at is null and t.is_public and btrim(coalesce(t.public_title, '')) <> ''
$$;
