-- mutant: R20-leaderboard-not-executable-by-anon
-- rules: R20
-- bug: execute was revoked from anon, so a caller with no session gets a permission error instead of NOT_AUTHORIZED.
-- in 0430_passport.sql replace:
grant execute on function passport.admin_leaderboard() to anon, authenticated, service_role;
-- with:
grant execute on function passport.admin_leaderboard() to authenticated, service_role;
-- end
