-- What the policies ask about the caller. Definer functions: they read users past its policies.
create function internal.caller_role() returns text
language sql stable security definer set search_path = public as $$
  select u.role from public.users u where u.id = auth.uid()
$$;

create function internal.caller_holds(p_grant text) returns boolean
language sql stable security definer set search_path = public as $$
  select coalesce(
    (select p_grant = any (u.grants || u.delegated_grants) from public.users u where u.id = auth.uid()),
    false)
$$;

create function internal.caller_is_agent() returns boolean
language sql stable security definer set search_path = public as $$
  select coalesce(internal.caller_role() in ('agent', 'lead', 'admin'), false)
$$;

create function internal.caller_is_admin() returns boolean
language sql stable security definer set search_path = public as $$
  select coalesce(internal.caller_role() = 'admin', false)
$$;
