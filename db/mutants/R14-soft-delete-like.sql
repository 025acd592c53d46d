-- mutant: R14-soft-delete-like
-- rules: R14
-- bug: soft_delete_pr_ticket finds the ticket with like, so a handler passing '%' (or an id with _) deletes other tickets.
create or replace function public.soft_delete_pr_ticket(p_id text)
returns boolean language plpgsql security definer set search_path = '' as $$
declare n integer;
begin
  if auth.uid() is null or public.current_user_role() is null then raise exception 'NOT_AUTHORIZED' using errcode = 'P0001'; end if;
  if not public.current_user_is_staff() then raise exception 'NOT_AUTHORIZED' using errcode = 'P0001'; end if;
  if not public.current_user_is_pr_handler() then raise exception 'NOT_AUTHORIZED' using errcode = 'P0001'; end if;
  update public.pr_tickets t set deleted_at = now() where t.id like p_id and t.deleted_at is null;
  get diagnostics n = row_count;
  return n > 0;
end $$;
