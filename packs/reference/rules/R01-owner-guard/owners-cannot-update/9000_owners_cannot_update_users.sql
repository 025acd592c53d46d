-- A project where people cannot edit their own profile (the app writes it from the identity
-- provider): no UPDATE policy lets a plain owner reach their users row; staff (their own row)
-- and admins still may. The guard trigger stays. Its config says `ownerEditableColumns: []`.
drop policy users_update on public.users;
create policy users_update on public.users for update to authenticated
  using ((id = auth.uid() and public.current_user_is_staff()) or public.current_user_is_admin())
  with check ((id = auth.uid() and public.current_user_is_staff()) or public.current_user_is_admin());
