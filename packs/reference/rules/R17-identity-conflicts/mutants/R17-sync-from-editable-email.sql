-- mutant: R17-sync-from-editable-email
-- rules: R17
-- bug: sync_my_team_permissions reads the caller's e-mail from the users row they can edit instead of their auth identity.
-- in 0410_team.sql replace:
  select a.email into v_email from auth.users a where a.id = auth.uid();
-- with:
  select coalesce(u.email, a.email) into v_email from auth.users a left join public.users u on u.id = a.id where a.id = auth.uid();
-- end
