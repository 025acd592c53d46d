-- Custom SQL migration file, put your code below! --
-- Identity helpers the policies call. Definer functions, so a policy reading the caller's
-- profile does not depend on the profiles policies (rule 17). Written in plpgsql so this file
-- can come before drizzle's generated tables.
CREATE SCHEMA IF NOT EXISTS "passport";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.current_workspace_id()
RETURNS uuid
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
  RETURN (SELECT p.workspace_id FROM public.profiles p WHERE p.id = auth.uid());
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.current_user_role()
RETURNS text
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
  RETURN (SELECT p.role::text FROM public.profiles p WHERE p.id = auth.uid());
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.current_user_dept()
RETURNS text
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
  RETURN (SELECT p.department FROM public.profiles p WHERE p.id = auth.uid());
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.my_person_id()
RETURNS uuid
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
  RETURN (SELECT p.id FROM public.profiles p WHERE p.id = auth.uid());
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.current_user_is_staff()
RETURNS boolean
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
  RETURN coalesce(
    public.current_user_role() IN ('staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'admin'),
    false);
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.current_user_is_admin()
RETURNS boolean
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
  RETURN coalesce(public.current_user_role() = 'admin', false);
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.current_user_has_permission(p_permission text)
RETURNS boolean
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
  RETURN coalesce((
    SELECT p_permission = ANY (p.permissions || p.managed_permissions)
    FROM public.profiles p WHERE p.id = auth.uid()), false);
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.current_user_is_project_actor()
RETURNS boolean
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
  RETURN coalesce(public.current_user_role() IN ('sa_prof', 'uni_staff', 'staff', 'admin'), false);
END;
$$;
--> statement-breakpoint
-- VS handling: admins, staff and vs_staff everywhere; holders of the vs permission; a
-- vp_admin only in their own department. A null role or null department handles nothing.
CREATE OR REPLACE FUNCTION public.can_handle_vs(p_dept text)
RETURNS boolean
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
  v_role text := public.current_user_role();
BEGIN
  IF v_role IS NULL THEN
    RETURN false;
  END IF;
  IF v_role = 'vp_admin' THEN
    RETURN p_dept IS NOT NULL AND p_dept = public.current_user_dept();
  END IF;
  RETURN v_role IN ('admin', 'staff', 'vs_staff') OR public.current_user_has_permission('vs');
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.can_handle_pr()
RETURNS boolean
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
  RETURN coalesce(public.current_user_role() IN ('admin', 'staff', 'pr_staff'), false)
      OR public.current_user_has_permission('pr');
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.can_handle_shop()
RETURNS boolean
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
  RETURN coalesce(public.current_user_role() IN ('admin', 'staff'), false)
      OR public.current_user_has_permission('house');
END;
$$;
