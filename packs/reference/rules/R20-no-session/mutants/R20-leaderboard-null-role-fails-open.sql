-- mutant: R20-leaderboard-null-role-fails-open
-- rules: R20
-- bug: the guard is "role not in (admins)", which is null for a caller with no session or no role, so they get the board.
-- in 0430_passport.sql replace:
  if not coalesce(public.current_user_is_admin(), false) then
-- with:
  if public.current_user_role() not in ('admin', 'dev') then
-- end
