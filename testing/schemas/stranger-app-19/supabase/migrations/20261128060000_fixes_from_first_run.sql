-- Fixes after the first policyfuzz run (the team's own, as it would write them).

-- Rule 20: a caller with no session receives NOT_AUTHORIZED from the leaderboard, which the
-- function raises itself; the revoke from anon answered "permission denied for function" instead.
grant execute on function passport.admin_leaderboard() to anon, service_role;

-- Server tools (service_role) lost passport with the blanket revoke: Supabase grants them only
-- the schemas it made. They bypass row rules, not grants.
grant usage on schema passport to service_role;
grant all on all tables in schema passport to service_role;
