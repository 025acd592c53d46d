-- mutant: R19-user-metadata-read-by-admin-helper
-- rules: R19, R18
-- bug: the admin helper every policy calls also takes the role a user stored in auth.users.raw_user_meta_data (sign-up options.data, auth.updateUser), which the user writes themselves, so anyone can make themselves an admin.
-- in 0100_users.sql replace:
as $$ select coalesce(public.current_user_role() in ('admin', 'dev'), false) $$;
-- with:
as $$ select coalesce(public.current_user_role() in ('admin', 'dev'), false)
  or coalesce((select u.raw_user_meta_data ->> 'role' from auth.users u where u.id = auth.uid()) in ('admin', 'dev'), false) $$;
-- end
