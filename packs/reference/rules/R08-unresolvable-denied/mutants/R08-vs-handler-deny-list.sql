-- mutant: R08-vs-handler-deny-list
-- rules: R08
-- bug: "VS handler" is written as a deny-list of plain roles, so a caller whose role is null (or who has no users row) counts as a handler.
-- in 0200_vs.sql replace:
  select coalesce(public.current_user_role() is not null
    and (public.current_user_role() in ('vs_staff', 'vp_admin', 'admin', 'dev')
         or public.current_user_has_permission('vs')), false)
-- with:
  select coalesce(public.current_user_role() not in ('user', 'staff', 'pr_staff', 'uni_staff', 'sa_prof')
    or public.current_user_has_permission('vs'), true)
-- end
