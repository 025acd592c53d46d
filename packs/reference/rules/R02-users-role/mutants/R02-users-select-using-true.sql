-- mutant: R02-users-select-using-true
-- rules: R02
-- bug: users' SELECT policy is using (true): every signed-in user reads every user's row (e-mail, role, department) — the loosening the spec's origin application shipped.
-- in 0100_users.sql replace:
create policy users_select on public.users for select to authenticated
  using (id = auth.uid() or public.current_user_is_staff());
-- with:
create policy users_select on public.users for select to authenticated
  using (true);
-- end
