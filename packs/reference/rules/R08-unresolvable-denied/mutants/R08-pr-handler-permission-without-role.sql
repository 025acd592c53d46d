-- mutant: R08-pr-handler-permission-without-role
-- rules: R08
-- bug: the PR handler helper accepts the pr permission whatever the role, so an identity whose role is null but who holds the permission reads and edits every ticket.
-- in 0300_pr_tickets.sql replace:
language sql stable security definer set search_path = ''
as $$
  select coalesce(
    public.current_user_role() is not null
    and (public.current_user_role() in ('pr_staff', 'staff', 'admin', 'dev') or public.current_user_has_permission('pr')),
    false)
-- with:
language sql stable security definer set search_path = '' as $$
  select coalesce(public.current_user_role() in ('pr_staff', 'staff', 'admin', 'dev'), false) or public.current_user_has_permission('pr')
-- end
