-- mutant: R07-vs-soft-delete-skips-policy
-- rules: R07
-- bug: soft_delete_vs_ticket checks "is staff" but not the DELETE policy's predicate: any staff member deletes any department's ticket.
create or replace function public.soft_delete_vs_ticket(p_id text) returns boolean
language plpgsql security definer set search_path = ''
as $$
declare
  n int;
begin
  if public.current_user_role() is null or not public.current_user_is_staff() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  perform set_config('app.vs_trusted', 'on', true);
  update public.vs_tickets t set deleted_at = now()
   where t.id = p_id and t.deleted_at is null;
  get diagnostics n = row_count;
  perform set_config('app.vs_trusted', '', true);
  return n > 0;
end
$$;
