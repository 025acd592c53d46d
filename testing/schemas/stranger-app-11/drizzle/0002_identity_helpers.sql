-- Custom migration: identity. The legacy users table keeps its bigint ids (every foreign key to a
-- person is one); a Supabase account is linked through users.auth_user_id. Users imported from
-- the legacy system, and people invited by e-mail, have a row before they sign up: sign-up links
-- that row by e-mail instead of making a second one.

CREATE OR REPLACE FUNCTION public.current_app_user_id() RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT u.id FROM public.users u WHERE u.auth_user_id = auth.uid()
$$;
--> statement-breakpoint
-- my_person_id(): the legacy code base calls a user a "person"; same id.
CREATE OR REPLACE FUNCTION public.my_person_id() RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT public.current_app_user_id()
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.current_user_role() RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT u.role::text FROM public.users u WHERE u.auth_user_id = auth.uid()
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.current_user_dept() RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT u.department FROM public.users u WHERE u.auth_user_id = auth.uid()
$$;
--> statement-breakpoint
-- Staff: every role that works tickets or the shop. Null role (no session, no users row) is not.
CREATE OR REPLACE FUNCTION public.current_user_is_staff() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT coalesce(public.current_user_role() IN ('staff', 'pr_staff', 'vs_staff', 'vp_admin', 'dev', 'admin'), false)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.current_user_is_admin() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT coalesce(public.current_user_role() IN ('dev', 'admin'), false)
$$;
--> statement-breakpoint
-- Effective permissions = permissions ∪ managed_permissions.
CREATE OR REPLACE FUNCTION public.current_user_has_permission(p_permission text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT coalesce(
    (SELECT p_permission = ANY (u.permissions || u.managed_permissions)
       FROM public.users u WHERE u.auth_user_id = auth.uid()),
    false)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.current_user_is_project_actor() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT coalesce(public.current_user_role() IN ('sa_prof', 'uni_staff', 'staff', 'dev', 'admin'), false)
      OR public.current_user_has_permission('house')
$$;
--> statement-breakpoint
-- VS handling: vs_staff, dev and admin handle every department; vp_admin and holders of the
-- 'vs' permission only their own. A null department never matches.
CREATE OR REPLACE FUNCTION public.can_handle_vs(p_dept text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT CASE
    WHEN public.current_user_role() IS NULL THEN false
    WHEN public.current_user_role() IN ('vs_staff', 'dev', 'admin') THEN true
    WHEN public.current_user_role() = 'vp_admin' OR public.current_user_has_permission('vs')
      THEN p_dept IS NOT NULL AND p_dept = public.current_user_dept()
    ELSE false
  END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.can_handle_pr() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT coalesce(public.current_user_role() IN ('pr_staff', 'staff', 'dev', 'admin'), false)
      OR public.current_user_has_permission('pr')
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.can_manage_shop() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT coalesce(public.current_user_role() IN ('staff', 'dev', 'admin'), false)
      OR public.current_user_has_permission('master')
$$;
--> statement-breakpoint
-- A VS category that does not resolve counts as confidential and not public-eligible.
CREATE OR REPLACE FUNCTION public.vs_category_is_publishable(p_category_id integer) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT coalesce(
    (SELECT NOT c.is_confidential AND c.public_eligible FROM public.vs_categories c WHERE c.id = p_category_id),
    false)
$$;
--> statement-breakpoint
-- Sign-up: link the invited / imported users row by e-mail, else create one.
CREATE OR REPLACE FUNCTION public.link_auth_user() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ''
AS $$
BEGIN
  UPDATE public.users
     SET auth_user_id = NEW.id, updated_at = now()
   WHERE lower(email) = lower(NEW.email) AND auth_user_id IS NULL;
  IF NOT FOUND THEN
    INSERT INTO public.users (auth_user_id, email, display_name)
    VALUES (NEW.id, lower(coalesce(NEW.email, NEW.id::text || '@users.invalid')),
            NEW.raw_user_meta_data ->> 'display_name');
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER on_auth_user_created AFTER INSERT ON auth.users
  FOR EACH ROW EXECUTE FUNCTION public.link_auth_user();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.touch_updated_at() RETURNS trigger
LANGUAGE plpgsql SET search_path = ''
AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_touch BEFORE UPDATE ON public.users FOR EACH ROW EXECUTE FUNCTION public.touch_updated_at();
--> statement-breakpoint
CREATE TRIGGER vs_tickets_touch BEFORE UPDATE ON public.vs_tickets FOR EACH ROW EXECUTE FUNCTION public.touch_updated_at();
--> statement-breakpoint
CREATE TRIGGER pr_tickets_touch BEFORE UPDATE ON public.pr_tickets FOR EACH ROW EXECUTE FUNCTION public.touch_updated_at();
--> statement-breakpoint
CREATE TRIGGER shop_orders_touch BEFORE UPDATE ON public.shop_orders FOR EACH ROW EXECUTE FUNCTION public.touch_updated_at();
--> statement-breakpoint
-- Helpers the policies call: callable by the API roles (rule: current_user_* are). Everything
-- else defaults to no EXECUTE below; Supabase grants EXECUTE to anon and authenticated on new
-- functions, so each revoke names them.
REVOKE EXECUTE ON FUNCTION public.link_auth_user() FROM PUBLIC, anon, authenticated;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION public.touch_updated_at() FROM PUBLIC, anon, authenticated;
