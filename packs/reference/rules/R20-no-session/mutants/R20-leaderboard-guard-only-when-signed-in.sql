-- mutant: R20-leaderboard-guard-only-when-signed-in
-- rules: R20
-- bug: the admin check runs only for a signed-in caller (auth.uid() is not null and not admin), so a caller with no session gets the leaderboard.
-- in 0430_passport.sql replace:
  if not coalesce(public.current_user_is_admin(), false) then
-- with:
  if auth.uid() is not null and not public.current_user_is_admin() then
-- end
