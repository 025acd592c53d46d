-- Found by policyfuzz (R09, R14): merge_vs_tickets checked that both tickets exist before it checked
-- the caller handles them, so anyone signed in (and the server's role, with no handler) learned
-- which ticket ids exist: "both tickets must exist and differ" (22023) for a missing one,
-- NOT_AUTHORIZED for one that exists (rule 14: an id is a capability; rule 9: the scope first).
-- A missing ticket is now refused exactly as one the caller does not handle.
create or replace function public.merge_vs_tickets(p_primary bigint, p_duplicate bigint)
returns setof public.vs_tickets
language plpgsql
security definer
set search_path = ''
as $$
declare
  prim public.vs_tickets;
  dup public.vs_tickets;
begin
  select * into prim from public.vs_tickets where id = p_primary and deleted_at is null;
  if not found or not public.can_handle_vs(prim.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into dup from public.vs_tickets where id = p_duplicate and deleted_at is null for update;
  if not found or not public.can_handle_vs(dup.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if prim.id = dup.id then
    raise exception 'a ticket cannot be merged into itself' using errcode = '22023';
  end if;
  if prim.target_dept <> dup.target_dept then
    raise exception 'cannot merge tickets of different departments' using errcode = '22023';
  end if;

  return query
    update public.vs_tickets
       set duplicate_of = prim.id,
           status = 'closed',
           remarks = remarks || jsonb_build_array(
             jsonb_build_object('vis', 'internal', 'by', 'system', 'internal', true,
                                'text', 'Merged into #' || prim.id, 'at', now()),
             jsonb_build_object('vis', 'ticket', 'by', 'system', 'internal', false,
                                'text', 'This report was closed because the same problem is already being handled.',
                                'at', now())
           )
     where id = dup.id
    returning *;
end;
$$;
