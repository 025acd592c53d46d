-- Fixes for what policyfuzz found (the declarative files in supabase/schemas/ carry the same
-- changes; this is the migration `supabase db diff -f fix_findings` made of them).

-- Rule 8: a remark with no visibility, or not an object, is not the submitter's to read.
create or replace function public.vs_visible_remarks(p_remarks jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce(jsonb_agg(r order by n), '[]'::jsonb)
    from jsonb_array_elements(p_remarks) with ordinality as e(r, n)
   where jsonb_typeof(r) = 'object'
     and r ->> 'vis' = 'ticket'
     and coalesce(r ->> 'internal', 'false') = 'false';
$$;

-- Rule 15: a private helper, never the API's.
revoke execute on function public.vs_visible_remarks(jsonb) from public, anon, authenticated;

-- Rule 1: definer functions (sync_my_team_permissions writing managed_permissions) are the
-- server, not the owner: the guard judges only the API roles.
create or replace function public.users_guard_owner_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  allowed constant text[] := array['display_name', 'updated_at'];
begin
  if auth.uid() is null or current_user not in ('anon', 'authenticated') then
    return new;
  end if;
  if public.current_user_is_admin() then
    return new;
  end if;
  if (to_jsonb(new) - allowed) is distinct from (to_jsonb(old) - allowed) then
    raise exception 'users: only display_name may be changed by its owner'
      using errcode = '42501';
  end if;
  return new;
end;
$$;

-- Rule 16: the server's tools (service_role) read and run the passport schema too.
grant usage on schema passport to service_role;
grant all on all tables in schema passport to service_role;
grant execute on function passport.admin_leaderboard() to service_role;
