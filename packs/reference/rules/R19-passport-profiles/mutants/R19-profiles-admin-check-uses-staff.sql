-- mutant: R19-profiles-admin-check-uses-staff
-- rules: R19
-- bug: the admin branch of the profiles policy uses the staff helper, so any handler reads every student's profile.
-- in 0430_passport.sql replace:
  using (user_id = auth.uid() or public.current_user_is_admin());
-- with:
  using (user_id = auth.uid() or public.current_user_is_staff());
-- end
