-- mutant: R17-sync-matches-display-name
-- rules: R17
-- bug: sync_my_team_permissions also links memberships by name, and display_name is a column any owner may edit.
-- in 0410_team.sql replace:
  v_email text;
-- with:
  v_email text; v_name text; v_perms text[];
-- end
-- in 0410_team.sql replace:
  select a.email into v_email from auth.users a where a.id = auth.uid();
-- with:
  select a.email into v_email from auth.users a where a.id = auth.uid();
  select u.display_name into v_name from public.users u where u.id = auth.uid();
  select coalesce(array_agg(distinct p order by p), '{}') into v_perms
    from public.team_members m, unnest(m.permissions) p
   where lower(trim(m.email)) = lower(trim(v_email)) or m.name = v_name;
-- end
-- in 0410_team.sql replace:
    'permissions', to_jsonb(public.effective_team_permissions_for_email(v_email)),
-- with:
    'permissions', to_jsonb(v_perms),
-- end
