-- mutant: R19-profiles-admin-by-user-metadata-claim
-- rules: R19
-- bug: the profiles policy also takes the admin role from the token's user_metadata, which every user sets for themselves (auth.updateUser({ data: { role: 'admin' } })), so anyone reads every profile (Supabase lint 0015 rls_references_user_metadata).
-- in 0430_passport.sql replace:
  using (user_id = auth.uid() or public.current_user_is_admin());
-- with:
  using (user_id = auth.uid() or public.current_user_is_admin() or (auth.jwt() -> 'user_metadata' ->> 'role') in ('admin', 'dev'));
-- end
