-- mutant: R19-profiles-admin-check-uses-staff
-- rules: R19
-- bug: the admin branch of the profiles policy uses the staff helper, so any handler reads every student's profile.
drop policy profiles_owner_or_admin_read on passport.profiles;
create policy profiles_owner_or_admin_read on passport.profiles for select to authenticated
  using (user_id = auth.uid() or public.current_user_is_staff());
