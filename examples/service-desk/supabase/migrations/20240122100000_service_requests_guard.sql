-- The person who opened a request may reword it and change the attachment, nothing else.
create function internal.guard_service_request_update() returns trigger
language plpgsql security definer set search_path = public as $$
declare
  allowed_columns text[] := array['description', 'attachment_url', 'updated_at'];
begin
  if auth.uid() is null or internal.caller_works_the_desk() or old.opened_by is distinct from auth.uid() then
    return new;
  end if;
  if (to_jsonb(new) - allowed_columns) is distinct from (to_jsonb(old) - allowed_columns) then
    raise exception 'forbidden: only the description and attachment can change' using errcode = '42501';
  end if;
  return new;
end $$;

create trigger guard_service_request_update before update on public.service_requests
  for each row execute function internal.guard_service_request_update();
