-- mutant: R19-profiles-admin-by-app-metadata-claim
-- rules: R19
-- bug: the profiles policy also trusts the token's app_metadata.role, so a user whose token says admin (but whose users.role does not) reads every profile.
-- in 0430_passport.sql replace:
  using (user_id = auth.uid() or public.current_user_is_admin());
-- with:
  using (user_id = auth.uid() or public.current_user_is_admin() or (auth.jwt() -> 'app_metadata' ->> 'role') = 'admin');
-- end
