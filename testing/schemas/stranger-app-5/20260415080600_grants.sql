-- Rule 15: only named grants are kept. Functions keep EXECUTE for the roles granted by name
-- (Supabase's default privileges name anon, authenticated and service_role); PUBLIC none.
revoke execute on all functions in schema public, passport from public;
grant execute on function passport.admin_leaderboard() to service_role;
