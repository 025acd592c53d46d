-- mutant: R15-resolver-revoke-missing
-- rules: R15
-- bug: a later migration recreated effective_team_permissions_for_email with drop/create, and Supabase's defaults gave anon and authenticated EXECUTE again: anyone can ask for another person's permissions.
drop function public.effective_team_permissions_for_email(text) cascade;
create function public.effective_team_permissions_for_email(p_email text) returns text[]
language sql stable security definer set search_path = ''
as $$
  select coalesce(array_agg(distinct p order by p), '{}')
    from public.team_members m, unnest(m.permissions) p
   where lower(trim(m.email)) = lower(trim(p_email))
$$;
