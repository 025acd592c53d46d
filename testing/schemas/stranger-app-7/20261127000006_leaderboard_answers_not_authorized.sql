-- Found by policyfuzz (R20): anon was refused passport.admin_leaderboard by the grant
-- ("permission denied for function"), so a caller with no session never received the
-- NOT_AUTHORIZED the spec names (rule 20, §4.2); the server's service_role neither (passport is
-- outside public's default privileges). The function's own check refuses every non-admin.
grant execute on function passport.admin_leaderboard() to anon, service_role;
