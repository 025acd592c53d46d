-- mutant: R07-vs-merge-deleted-duplicate
-- rules: R07
-- bug: merge_vs_tickets looks the duplicate up without "deleted_at is null", so a soft-deleted
--   ticket is still merged (closed, re-pointed, remarks appended) into a live one.
create or replace function public.merge_vs_tickets(p_duplicate text, p_primary text) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  d public.vs_tickets;
  p public.vs_tickets;
begin
  if not public.current_user_is_vs_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  select * into d from public.vs_tickets t where t.id = p_duplicate and public.vs_in_scope(t.target_dept);
  if not found then raise exception 'merge: ticket not found' using errcode = 'P0001'; end if;
  select * into p from public.vs_tickets t where t.id = p_primary and t.deleted_at is null and public.vs_in_scope(t.target_dept);
  if not found then raise exception 'merge: ticket not found' using errcode = 'P0001'; end if;
  if d.id = p.id then raise exception 'merge: a ticket cannot be merged into itself' using errcode = 'P0001'; end if;
  if d.target_dept <> p.target_dept then raise exception 'merge: cross-department merge' using errcode = 'P0001'; end if;
  if p.duplicate_of is not null then raise exception 'merge: the primary is itself a duplicate' using errcode = 'P0001'; end if;
  perform set_config('app.vs_trusted', 'on', true);
  update public.vs_tickets t
     set duplicate_of = p.id, status = 'closed',
         remarks = t.remarks || jsonb_build_array(
           jsonb_build_object('vis', 'staff', 'by', 'system', 'internal', true, 'text', 'merged into ' || p.id),
           jsonb_build_object('vis', 'ticket', 'by', 'system', 'internal', false,
             'text', 'This report was closed because the same problem is already being handled.'))
   where t.id = d.id;
  perform set_config('app.vs_trusted', '', true);
end
$$;
