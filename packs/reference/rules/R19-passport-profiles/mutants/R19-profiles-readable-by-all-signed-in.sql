-- mutant: R19-profiles-readable-by-all-signed-in
-- rules: R19
-- bug: the owner check was dropped from the profiles read policy ("any signed-in student may look"), so every profile is readable.
-- in 0430_passport.sql replace:
create policy profiles_owner_or_admin_read on passport.profiles for select to authenticated
  using (user_id = auth.uid() or public.current_user_is_admin());
-- with:
create policy profiles_read on passport.profiles for select to authenticated using (auth.uid() is not null);
-- end
