-- mutant: R08-vs-handler-deny-list
-- rules: R08
-- bug: "VS handler" is written as a deny-list of plain roles, so a caller whose role is null (or who has no users row) counts as a handler.
create or replace function public.current_user_is_vs_handler() returns boolean
language sql stable security definer set search_path = ''
as $$
  select coalesce(public.current_user_role() not in ('user', 'staff', 'pr_staff', 'uni_staff', 'sa_prof')
    or public.current_user_has_permission('vs'), true)
$$;
