-- mutant: R17-sync-from-editable-email
-- rules: R17
-- bug: sync_my_team_permissions reads the caller's e-mail from the users row they can edit instead of their auth identity.
create or replace function public.sync_my_team_permissions() returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
declare v_email text;
begin
  if auth.uid() is null then raise exception 'NOT_AUTHORIZED' using errcode = 'P0001'; end if;
  select coalesce(u.email, a.email) into v_email from auth.users a left join public.users u on u.id = a.id where a.id = auth.uid();
  return jsonb_build_object('permissions', to_jsonb(public.effective_team_permissions_for_email(v_email)), 'vs_dept', public.effective_team_vs_dept_for_email(v_email));
end $$;
