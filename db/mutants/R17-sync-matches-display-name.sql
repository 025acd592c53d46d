-- mutant: R17-sync-matches-display-name
-- rules: R17
-- bug: sync_my_team_permissions also links memberships by name, and display_name is a column any owner may edit.
create or replace function public.sync_my_team_permissions() returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
declare v_email text; v_name text; v_perms text[];
begin
  if auth.uid() is null then raise exception 'NOT_AUTHORIZED' using errcode = 'P0001'; end if;
  select a.email into v_email from auth.users a where a.id = auth.uid();
  select u.display_name into v_name from public.users u where u.id = auth.uid();
  select coalesce(array_agg(distinct p order by p), '{}') into v_perms
    from public.team_members m, unnest(m.permissions) p
   where lower(trim(m.email)) = lower(trim(v_email)) or m.name = v_name;
  return jsonb_build_object('permissions', to_jsonb(v_perms), 'vs_dept', public.effective_team_vs_dept_for_email(v_email));
end $$;
