-- mutant: R20-leaderboard-for-staff
-- rules: R20
-- bug: the guard checks the staff helper instead of the admin one, so handlers who are not admins read the board.
-- in 0430_passport.sql replace:
  if not coalesce(public.current_user_is_admin(), false) then
-- with:
  if not public.current_user_is_staff() then
-- end
