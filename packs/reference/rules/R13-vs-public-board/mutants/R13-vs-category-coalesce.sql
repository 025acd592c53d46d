-- mutant: R13-vs-category-coalesce
-- rules: R13, R08
-- bug: the category test is coalesce(is_confidential, false) over a left join: a category that no longer exists (or has unknown flags) counts as public.
-- in 0200_vs.sql replace:
  select exists (
    select 1 from public.vs_categories c
    where c.id = p_category and c.is_confidential is false and c.public_eligible is true)
-- with:
  select not coalesce(c.is_confidential, false) and coalesce(c.public_eligible, true)
  from (select 1) one left join public.vs_categories c on c.id = p_category
-- end
