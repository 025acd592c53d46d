-- mutant: R19-passport-profiles-select-using-true
-- rules: R19
-- bug: passport.profiles' SELECT policy is using (true): every signed-in user reads every student's passport profile.
-- in 0430_passport.sql replace:
create policy profiles_owner_or_admin_read on passport.profiles for select to authenticated
  using (user_id = auth.uid() or public.current_user_is_admin());
-- with:
create policy profiles_owner_or_admin_read on passport.profiles for select to authenticated
  using (true);
-- end
