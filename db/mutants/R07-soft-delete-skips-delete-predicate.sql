-- mutant: R07-soft-delete-skips-delete-predicate
-- rules: R07
-- bug: soft_delete_pr_ticket checks only that the caller is staff and does not re-check the DELETE rule (a PR handler), so vs_staff and vp_admin delete PR tickets.
create or replace function public.soft_delete_pr_ticket(p_id text)
returns boolean language plpgsql security definer set search_path = '' as $$
declare n integer;
begin
  if auth.uid() is null or public.current_user_role() is null then raise exception 'NOT_AUTHORIZED' using errcode = 'P0001'; end if;
  if not public.current_user_is_staff() then raise exception 'NOT_AUTHORIZED' using errcode = 'P0001'; end if;
  update public.pr_tickets t set deleted_at = now() where t.id = p_id and t.deleted_at is null;
  get diagnostics n = row_count;
  return n > 0;
end $$;
