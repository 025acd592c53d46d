-- Custom migration: the activity passport, ported into its own schema (exposed to the API
-- next to public).
CREATE SCHEMA IF NOT EXISTS passport;
--> statement-breakpoint
GRANT USAGE ON SCHEMA passport TO anon, authenticated;
--> statement-breakpoint
CREATE TABLE passport.profiles (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL UNIQUE REFERENCES public.users (id) ON DELETE CASCADE,
  nickname varchar(60),
  faculty varchar(120),
  bio text,
  points integer NOT NULL DEFAULT 0,
  created_at timestamp(3) NOT NULL DEFAULT now(),
  updated_at timestamp(3) NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE passport.activities (
  id text PRIMARY KEY DEFAULT public.nanoid(12),
  user_id bigint NOT NULL REFERENCES public.users (id) ON DELETE CASCADE,
  kind varchar(60) NOT NULL,
  points integer NOT NULL,
  occurred_at timestamp(3) NOT NULL DEFAULT now()
);
--> statement-breakpoint
ALTER TABLE passport.profiles ENABLE ROW LEVEL SECURITY;
ALTER TABLE passport.profiles FORCE ROW LEVEL SECURITY;
ALTER TABLE passport.activities ENABLE ROW LEVEL SECURITY;
ALTER TABLE passport.activities FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
REVOKE ALL ON ALL TABLES IN SCHEMA passport FROM anon, authenticated;
GRANT SELECT, UPDATE ON passport.profiles TO authenticated;
GRANT SELECT ON passport.activities TO authenticated;
--> statement-breakpoint
-- Rule 19: profiles by their owner or admins only.
CREATE POLICY profiles_owner_or_admin ON passport.profiles FOR SELECT TO authenticated
  USING (user_id = (SELECT public.current_app_user_id()) OR (SELECT public.current_user_is_admin()));
CREATE POLICY profiles_owner_update ON passport.profiles FOR UPDATE TO authenticated
  USING (user_id = (SELECT public.current_app_user_id()) OR (SELECT public.current_user_is_admin()))
  WITH CHECK (user_id = (SELECT public.current_app_user_id()) OR (SELECT public.current_user_is_admin()));
CREATE POLICY activities_owner_or_admin ON passport.activities FOR SELECT TO authenticated
  USING (user_id = (SELECT public.current_app_user_id()) OR (SELECT public.current_user_is_admin()));
--> statement-breakpoint
CREATE OR REPLACE FUNCTION passport.profiles_guard() RETURNS trigger
LANGUAGE plpgsql SET search_path = ''
AS $$
DECLARE
  bad text[];
BEGIN
  IF NOT public.is_api_caller() OR public.current_user_is_admin() THEN
    RETURN NEW;
  END IF;
  bad := public.changed_columns(to_jsonb(OLD), to_jsonb(NEW), ARRAY['nickname', 'faculty', 'bio', 'updated_at']);
  IF cardinality(bad) > 0 THEN
    RAISE EXCEPTION USING errcode = '42501', message = format('you may not change %s', array_to_string(bad, ', '));
  END IF;
  NEW.updated_at := now();
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER profiles_guard BEFORE UPDATE ON passport.profiles FOR EACH ROW EXECUTE FUNCTION passport.profiles_guard();
--> statement-breakpoint
-- Rule 19: the view runs with the caller's rights, so it shows what profiles shows them.
CREATE VIEW passport.user_tiers WITH (security_invoker = true) AS
  SELECT p.user_id, p.nickname, p.points,
         CASE WHEN p.points >= 1000 THEN 'gold' WHEN p.points >= 300 THEN 'silver' ELSE 'bronze' END AS tier
    FROM passport.profiles p;
--> statement-breakpoint
GRANT SELECT ON passport.user_tiers TO authenticated;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION passport.admin_leaderboard()
RETURNS TABLE (user_id bigint, nickname varchar, points integer, tier text)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = ''
AS $$
BEGIN
  IF NOT public.current_user_is_admin() THEN
    RAISE EXCEPTION USING errcode = '42501', message = 'NOT_AUTHORIZED';
  END IF;
  RETURN QUERY
    SELECT p.user_id, p.nickname, p.points,
           CASE WHEN p.points >= 1000 THEN 'gold' WHEN p.points >= 300 THEN 'silver' ELSE 'bronze' END
      FROM passport.profiles p
     ORDER BY p.points DESC, p.user_id
     LIMIT 100;
END
$$;
--> statement-breakpoint
REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA passport FROM PUBLIC, anon, authenticated;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION passport.admin_leaderboard() TO anon, authenticated;
