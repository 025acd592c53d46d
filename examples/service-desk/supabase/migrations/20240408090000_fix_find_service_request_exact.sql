-- Security fix: ilike made "%" match every request, so a guest could read anyone's. Compare
-- the normalized code exactly.
create or replace function public.find_service_request(p_code text)
returns table (code text, opener_label text, description text, attachment_url text, stage text, opened_at timestamptz)
language plpgsql stable security definer set search_path = public as $$
begin
  return query
    select r.code, r.opener_label, r.description, r.attachment_url, r.stage, r.opened_at
      from public.service_requests r
     where r.removed_at is null and r.code_key = lower(btrim(p_code));
end $$;
