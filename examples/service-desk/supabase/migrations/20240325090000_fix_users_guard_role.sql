-- Security fix: the guard listed what people may not change and missed role and unit, so a
-- requester could make themselves admin. It now lists what they may change.
create or replace function internal.guard_users_update() returns trigger
language plpgsql security definer set search_path = public as $$
declare
  allowed_columns text[] := array['full_name', 'updated_at', 'email_domain'];
begin
  if auth.uid() is null or internal.caller_is_agent() or old.id is distinct from auth.uid() then
    return new;
  end if;
  if (to_jsonb(new) - allowed_columns) is distinct from (to_jsonb(old) - allowed_columns) then
    raise exception 'forbidden: you cannot change that' using errcode = '42501';
  end if;
  return new;
end $$;
