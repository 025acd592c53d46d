-- mutant: R14-vs-transfer-ilike
-- rules: R14
-- bug: vs_transfer_dept finds the ticket with ilike, so a wildcard id moves every ticket it matches.
create or replace function public.vs_transfer_dept(p_id text, p_dept text, p_remarks jsonb default '[]'::jsonb) returns void
language plpgsql security definer set search_path = ''
as $$
begin
  if not public.current_user_is_vs_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  if p_dept is null or btrim(p_dept) = '' then
    raise exception 'transfer: a destination department is required' using errcode = 'P0001';
  end if;
  if p_remarks is not null and jsonb_typeof(p_remarks) <> 'array' then
    raise exception 'transfer: p_remarks must be an array' using errcode = 'P0001';
  end if;
  perform set_config('app.vs_trusted', 'on', true);
  update public.vs_tickets t
     set target_dept = p_dept, remarks = t.remarks || coalesce(p_remarks, '[]'::jsonb)
   where t.id ilike p_id and t.deleted_at is null and public.vs_in_scope(t.target_dept);
  if not found then raise exception 'transfer: ticket not found' using errcode = 'P0001'; end if;
  perform set_config('app.vs_trusted', '', true);
end
$$;
