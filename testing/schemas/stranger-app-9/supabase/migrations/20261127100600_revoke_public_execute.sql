-- Found by policyfuzz (R15:catalog): `alter default privileges in schema private revoke execute
-- on functions from public` does nothing, since per-schema default privileges only add to the
-- global ones. Every private helper was executable by PUBLIC. Revoke it; the API roles keep the
-- grants they were given by name.
revoke execute on all functions in schema private from public;
revoke execute on all functions in schema audit from public;

-- Rule 20: a caller with no session receives NOT_AUTHORIZED from the leaderboard, not a missing
-- grant; the function refuses them itself.
grant execute on function passport.admin_leaderboard() to anon;
