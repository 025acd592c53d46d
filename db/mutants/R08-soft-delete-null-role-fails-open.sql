-- mutant: R08-soft-delete-null-role-fails-open
-- rules: R08
-- bug: soft_delete_pr_ticket rejects a deny-list of roles and checks the handler by role or permission, so a caller whose role is null (no role yet) but who holds the pr permission deletes tickets.
create or replace function public.soft_delete_pr_ticket(p_id text)
returns boolean language plpgsql security definer set search_path = '' as $$
declare n integer;
begin
  if public.current_user_role() in ('user', 'uni_staff', 'sa_prof') then raise exception 'NOT_AUTHORIZED' using errcode = 'P0001'; end if;
  if not coalesce(public.current_user_role() in ('pr_staff', 'staff', 'admin', 'dev') or public.current_user_has_permission('pr'), false) then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  update public.pr_tickets t set deleted_at = now() where t.id = p_id and t.deleted_at is null;
  get diagnostics n = row_count;
  return n > 0;
end $$;
