-- The directors' "master" grant opens every door a narrower grant opens.
create or replace function internal.caller_holds(p_grant text) returns boolean
language sql stable security definer set search_path = public as $$
  select coalesce(
    (select p_grant = any (u.grants || u.delegated_grants) or 'master' = any (u.grants || u.delegated_grants)
       from public.users u where u.id = auth.uid()),
    false)
$$;
