-- mutant: R20-leaderboard-not-executable-by-anon
-- rules: R20
-- bug: execute was revoked from anon, so a caller with no session gets a permission error instead of NOT_AUTHORIZED.
revoke execute on function passport.admin_leaderboard() from anon;
