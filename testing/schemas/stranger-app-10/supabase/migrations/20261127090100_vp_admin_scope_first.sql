-- Found by policyfuzz (R06, R09): a vp_admin holding the `vs` permission (their own, or one a team
-- seat manages) handled every department's tickets, because the permission test came before the
-- vp_admin scope. Rule 9: a vp_admin sees only target_dept = current_user_dept(), whatever else
-- they hold.
create or replace function private.can_handle_vs(p_dept text)
returns boolean
language sql stable
set search_path = ''
as $$
  select case
    when public.current_user_role() = 'vp_admin'
      then p_dept is not null and p_dept = public.current_user_dept()
    when public.current_user_role() in ('dev', 'admin', 'staff', 'vs_staff') then true
    when public.current_user_has_permission('vs') then true
    else false
  end
$$;
