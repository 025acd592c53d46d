-- Security fix: any agent-level role (a storekeeper too) could remove desk requests. Removing
-- now also needs to work the desk.
create or replace function public.remove_service_request(p_code text)
returns jsonb
language plpgsql security definer set search_path = public as $$
declare
  removed_code text;
begin
  if internal.caller_role() is null or not internal.caller_is_agent() or not internal.caller_works_the_desk() then
    raise exception 'forbidden' using errcode = '42501';
  end if;
  update public.service_requests set removed_at = now()
   where service_requests.code = p_code and removed_at is null
  returning service_requests.code into removed_code;
  if removed_code is null then
    raise exception 'no service request %', p_code using errcode = 'no_data_found';
  end if;
  return jsonb_build_object('removed', true, 'code', removed_code);
end $$;
