-- mutant: R13-vs-category-coalesce
-- rules: R13, R08
-- bug: the category test is coalesce(is_confidential, false) over a left join: a category that no longer exists (or has unknown flags) counts as public.
create or replace function private.vs_category_public(p_category text) returns boolean
language sql stable security definer set search_path = ''
as $$
  select not coalesce(c.is_confidential, false) and coalesce(c.public_eligible, true)
  from (select 1) one left join public.vs_categories c on c.id = p_category
$$;
