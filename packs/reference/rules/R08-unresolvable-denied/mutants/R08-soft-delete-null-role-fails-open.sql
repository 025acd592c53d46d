-- mutant: R08-soft-delete-null-role-fails-open
-- rules: R08
-- bug: soft_delete_pr_ticket rejects a deny-list of roles and checks the handler by role or permission, so a caller whose role is null (no role yet) but who holds the pr permission deletes tickets.
-- in 0300_pr_tickets.sql replace:
  if auth.uid() is null or public.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  if not public.current_user_is_staff() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  if not public.current_user_is_pr_handler() then
-- with:
  if public.current_user_role() in ('user', 'uni_staff', 'sa_prof') then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  if not coalesce(public.current_user_role() in ('pr_staff', 'staff', 'admin', 'dev') or public.current_user_has_permission('pr'), false) then
-- end
