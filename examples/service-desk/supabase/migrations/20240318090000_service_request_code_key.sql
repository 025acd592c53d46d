-- People quote codes in any case and with stray spaces: keep the normalized code, indexed.
alter table public.service_requests
  add column code_key text generated always as (lower(btrim(code))) stored;
create index service_requests_code_key on public.service_requests (code_key);

-- The guard compares whole rows; the generated key is not computed yet in a BEFORE trigger.
create or replace function internal.guard_service_request_update() returns trigger
language plpgsql security definer set search_path = public as $$
declare
  allowed_columns text[] := array['description', 'attachment_url', 'updated_at', 'code_key'];
begin
  if auth.uid() is null or internal.caller_works_the_desk() or old.opened_by is distinct from auth.uid() then
    return new;
  end if;
  if (to_jsonb(new) - allowed_columns) is distinct from (to_jsonb(old) - allowed_columns) then
    raise exception 'forbidden: only the description and attachment can change' using errcode = '42501';
  end if;
  return new;
end $$;
