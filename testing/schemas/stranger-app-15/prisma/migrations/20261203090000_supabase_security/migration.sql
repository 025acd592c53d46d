-- Hand-written: Prisma doesn't know about Supabase auth, row level security or the REST roles.
-- The app writes through Prisma on the server (service role); browsers read and write through
-- supabase-js, so every table the client touches needs policies and grants here.

ALTER TABLE "User" ADD CONSTRAINT "User_authId_fkey" FOREIGN KEY ("authId") REFERENCES auth.users(id) ON DELETE CASCADE ON UPDATE CASCADE;

-- Prisma can't express generated columns.
ALTER TABLE "VsTicket" ADD COLUMN "isDuplicate" BOOLEAN GENERATED ALWAYS AS ("duplicateOfId" IS NOT NULL) STORED;

-- @updatedAt is filled by Prisma Client only; writes through PostgREST need the database to do it.
CREATE OR REPLACE FUNCTION public.set_updated_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW."updatedAt" := now();
  RETURN NEW;
END;
$$;

CREATE TRIGGER "User_set_updated_at" BEFORE INSERT OR UPDATE ON "User" FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();
CREATE TRIGGER "VsTicket_set_updated_at" BEFORE INSERT OR UPDATE ON "VsTicket" FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();
CREATE TRIGGER "PrTicket_set_updated_at" BEFORE INSERT OR UPDATE ON "PrTicket" FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();
CREATE TRIGGER "ShopOrder_set_updated_at" BEFORE UPDATE ON "ShopOrder" FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();
CREATE TRIGGER "TeamNode_set_updated_at" BEFORE INSERT OR UPDATE ON "TeamNode" FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();
CREATE TRIGGER "TeamMember_set_updated_at" BEFORE INSERT OR UPDATE ON "TeamMember" FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();
CREATE TRIGGER "ProjectSetting_set_updated_at" BEFORE INSERT OR UPDATE ON "ProjectSetting" FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();
CREATE TRIGGER "Project_set_updated_at" BEFORE INSERT OR UPDATE ON "Project" FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();
CREATE TRIGGER "StudentRecord_set_updated_at" BEFORE INSERT OR UPDATE ON "StudentRecord" FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();
CREATE TRIGGER "Profile_set_updated_at" BEFORE INSERT OR UPDATE ON passport."Profile" FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- cuid() is Prisma Client's too; rows created from the browser get a random id.
ALTER TABLE "PrTicket" ALTER COLUMN "id" SET DEFAULT ('PR-' || upper(substr(md5(gen_random_uuid()::text), 1, 8)));
ALTER TABLE "ShopOrder" ALTER COLUMN "id" SET DEFAULT gen_random_uuid()::text;
ALTER TABLE "VsPublicComment" ALTER COLUMN "id" SET DEFAULT gen_random_uuid()::text;
ALTER TABLE "ProjectFile" ALTER COLUMN "id" SET DEFAULT gen_random_uuid()::text;
ALTER TABLE "StudentChangeRequest" ALTER COLUMN "id" SET DEFAULT gen_random_uuid()::text;

------------------------------------------------------------------------------------------------
-- Identity helpers. Policies never read "User" directly (it has its own policies).
------------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION public.current_app_user_id() RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT u."id" FROM public."User" u WHERE u."authId" = auth.uid()
$$;

CREATE OR REPLACE FUNCTION public.my_person_id() RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT public.current_app_user_id()
$$;

CREATE OR REPLACE FUNCTION public.current_user_role() RETURNS "Role"
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT u."role" FROM public."User" u WHERE u."authId" = auth.uid()
$$;

CREATE OR REPLACE FUNCTION public.current_user_dept() RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT u."department" FROM public."User" u WHERE u."authId" = auth.uid()
$$;

CREATE OR REPLACE FUNCTION public.current_user_is_staff() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT coalesce(public.current_user_role() IN ('DEV', 'STAFF', 'PR_STAFF', 'VS_STAFF', 'VP_ADMIN', 'UNI_STAFF'), false)
$$;

CREATE OR REPLACE FUNCTION public.current_user_is_admin() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT coalesce(public.current_user_role() IN ('DEV', 'UNI_STAFF'), false)
$$;

CREATE OR REPLACE FUNCTION public.current_user_has_permission(p_permission text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT coalesce((
    SELECT p_permission = ANY (coalesce(u."permissions", '{}') || coalesce(u."managedPermissions", '{}'))
    FROM public."User" u WHERE u."authId" = auth.uid()
  ), false)
$$;

CREATE OR REPLACE FUNCTION public.can_handle_vs(p_dept text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT CASE public.current_user_role()
    WHEN 'DEV' THEN true
    WHEN 'STAFF' THEN true
    WHEN 'VS_STAFF' THEN true
    WHEN 'VP_ADMIN' THEN p_dept IS NOT NULL AND p_dept = public.current_user_dept()
    ELSE public.current_user_has_permission('vs')
  END
$$;

CREATE OR REPLACE FUNCTION public.can_handle_pr() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT coalesce(public.current_user_role() IN ('DEV', 'STAFF', 'PR_STAFF'), false)
      OR public.current_user_has_permission('pr')
$$;

CREATE OR REPLACE FUNCTION public.can_handle_shop() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT coalesce(public.current_user_role() IN ('DEV', 'STAFF'), false)
      OR public.current_user_has_permission('house')
$$;

CREATE OR REPLACE FUNCTION public.current_user_is_project_actor(p_project_id text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT EXISTS (
    SELECT 1 FROM public."Project" p WHERE p."id" = p_project_id AND p."ownerId" = public.current_app_user_id()
  ) OR EXISTS (
    SELECT 1 FROM public."ProjectSignRequest" r
    WHERE r."projectId" = p_project_id AND r."actorId" = public.current_app_user_id()
  )
$$;

------------------------------------------------------------------------------------------------
-- Guards: row level security picks rows, these pick columns.
------------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION public.guard_user_update() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = '' AS $$
BEGIN
  IF auth.uid() IS NULL OR public.current_user_is_staff() THEN
    RETURN NEW;
  END IF;
  IF (to_jsonb(NEW) - ARRAY['displayName', 'avatarUrl', 'updatedAt'])
     IS DISTINCT FROM (to_jsonb(OLD) - ARRAY['displayName', 'avatarUrl', 'updatedAt']) THEN
    RAISE EXCEPTION 'You can only change your display name and avatar' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "User_guard" BEFORE UPDATE ON "User" FOR EACH ROW EXECUTE FUNCTION public.guard_user_update();

CREATE OR REPLACE FUNCTION public.guard_vs_ticket_update() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = '' AS $$
DECLARE
  old_count int := jsonb_array_length(OLD."remarks");
  new_count int := jsonb_array_length(NEW."remarks");
  entry jsonb;
BEGIN
  IF auth.uid() IS NULL OR public.can_handle_vs(OLD."targetDept") THEN
    RETURN NEW;
  END IF;
  IF OLD."submitterId" IS DISTINCT FROM public.current_app_user_id() THEN
    RETURN NEW;
  END IF;
  IF (to_jsonb(NEW) - ARRAY['remarks', 'updatedAt', 'isDuplicate'])
     IS DISTINCT FROM (to_jsonb(OLD) - ARRAY['remarks', 'updatedAt', 'isDuplicate']) THEN
    RAISE EXCEPTION 'Submitters can only add remarks to their ticket' USING ERRCODE = '42501';
  END IF;
  IF new_count < old_count OR NEW."remarks" -> 0 IS DISTINCT FROM OLD."remarks" -> 0
     OR (old_count > 0 AND (NEW."remarks" - (new_count - 1)) IS NULL) THEN
    RAISE EXCEPTION 'Remarks are append-only' USING ERRCODE = '42501';
  END IF;
  FOR i IN 0 .. old_count - 1 LOOP
    IF NEW."remarks" -> i IS DISTINCT FROM OLD."remarks" -> i THEN
      RAISE EXCEPTION 'Remarks are append-only' USING ERRCODE = '42501';
    END IF;
  END LOOP;
  IF new_count > 20 THEN
    RAISE EXCEPTION 'Too many remarks on this ticket' USING ERRCODE = '42501';
  END IF;
  FOR i IN old_count .. new_count - 1 LOOP
    entry := NEW."remarks" -> i;
    IF entry ->> 'vis' IS DISTINCT FROM 'ticket' OR entry ->> 'by' IS DISTINCT FROM 'submitter'
       OR coalesce((entry ->> 'internal')::boolean, false) THEN
      RAISE EXCEPTION 'Remarks from submitters must be ticket-visible and signed as submitter' USING ERRCODE = '42501';
    END IF;
  END LOOP;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "VsTicket_guard" BEFORE UPDATE ON "VsTicket" FOR EACH ROW EXECUTE FUNCTION public.guard_vs_ticket_update();

CREATE OR REPLACE FUNCTION public.guard_shop_order_update() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = '' AS $$
BEGIN
  IF auth.uid() IS NULL OR public.can_handle_shop() THEN
    RETURN NEW;
  END IF;
  IF NEW."total" IS DISTINCT FROM OLD."total"
     OR NEW."subtotal" IS DISTINCT FROM OLD."subtotal"
     OR NEW."adminNote" IS DISTINCT FROM OLD."adminNote"
     OR NEW."timeline" IS DISTINCT FROM OLD."timeline"
     OR NEW."buyerId" IS DISTINCT FROM OLD."buyerId" THEN
    RAISE EXCEPTION 'Buyers cannot change the price or staff fields of an order' USING ERRCODE = '42501';
  END IF;
  IF NEW."status" IS DISTINCT FROM OLD."status" AND NEW."status" = 'PAID' THEN
    RAISE EXCEPTION 'Buyers cannot mark an order as paid' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "ShopOrder_guard" BEFORE UPDATE ON "ShopOrder" FOR EACH ROW EXECUTE FUNCTION public.guard_shop_order_update();

------------------------------------------------------------------------------------------------
-- Row level security
------------------------------------------------------------------------------------------------

ALTER TABLE "User" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "VsCategory" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "VsTicket" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "Tag" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "VsPublicComment" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "PrTicket" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "ShopOrder" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "TeamNode" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "TeamMember" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "_TeamMemberToTeamNode" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "ProjectSetting" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "Project" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "ProjectDocument" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "ProjectFile" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "ProjectSignRequest" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "StudentRecord" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "StudentChangeRequest" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "IdentityConflict" ENABLE ROW LEVEL SECURITY;
ALTER TABLE passport."Profile" ENABLE ROW LEVEL SECURITY;
ALTER TABLE passport."Activity" ENABLE ROW LEVEL SECURITY;

-- User
CREATE POLICY "User_select_own_or_staff" ON "User" FOR SELECT TO authenticated
  USING ("authId" = auth.uid() OR public.current_user_is_staff());
CREATE POLICY "User_update_own" ON "User" FOR UPDATE TO authenticated
  USING ("authId" = auth.uid()) WITH CHECK ("authId" = auth.uid());
CREATE POLICY "User_update_staff" ON "User" FOR UPDATE TO authenticated
  USING (public.current_user_is_staff()) WITH CHECK (public.current_user_is_staff());

-- VsCategory
CREATE POLICY "VsCategory_select_all" ON "VsCategory" FOR SELECT TO anon, authenticated USING (true);
CREATE POLICY "VsCategory_write_staff" ON "VsCategory" FOR ALL TO authenticated
  USING (public.current_user_is_staff()) WITH CHECK (public.current_user_is_staff());

-- VsTicket
CREATE POLICY "VsTicket_select_submitter" ON "VsTicket" FOR SELECT TO authenticated
  USING ("deletedAt" IS NULL AND "submitterId" = public.current_app_user_id());
CREATE POLICY "VsTicket_select_handler" ON "VsTicket" FOR SELECT TO authenticated
  USING ("deletedAt" IS NULL AND public.can_handle_vs("targetDept"));
CREATE POLICY "VsTicket_insert_submitter" ON "VsTicket" FOR INSERT TO authenticated
  WITH CHECK ("submitterId" = public.current_app_user_id() AND "deletedAt" IS NULL);
CREATE POLICY "VsTicket_update_submitter" ON "VsTicket" FOR UPDATE TO authenticated
  USING ("deletedAt" IS NULL AND "submitterId" = public.current_app_user_id())
  WITH CHECK ("deletedAt" IS NULL AND "submitterId" = public.current_app_user_id());
CREATE POLICY "VsTicket_update_handler" ON "VsTicket" FOR UPDATE TO authenticated
  USING ("deletedAt" IS NULL AND public.can_handle_vs("targetDept"))
  WITH CHECK ("deletedAt" IS NULL AND public.can_handle_vs("targetDept"));
CREATE POLICY "VsTicket_delete_handler" ON "VsTicket" FOR DELETE TO authenticated
  USING (public.current_user_role() IS NOT NULL AND public.can_handle_vs("targetDept"));

-- Tag
CREATE POLICY "Tag_select_all" ON "Tag" FOR SELECT TO anon, authenticated USING (true);
CREATE POLICY "Tag_write_vs_handlers" ON "Tag" FOR ALL TO authenticated
  USING (public.can_handle_vs(NULL) OR public.current_user_role() = 'VP_ADMIN')
  WITH CHECK (public.can_handle_vs(NULL) OR public.current_user_role() = 'VP_ADMIN');

-- VsPublicComment: read through get_public_vs_problem, written through vs_post_public_comment
CREATE POLICY "VsPublicComment_select_staff" ON "VsPublicComment" FOR SELECT TO authenticated
  USING (public.current_user_is_staff());

-- PrTicket
CREATE POLICY "PrTicket_select_submitter" ON "PrTicket" FOR SELECT TO authenticated
  USING ("deletedAt" IS NULL AND "submitterId" = public.current_app_user_id());
CREATE POLICY "PrTicket_select_handler" ON "PrTicket" FOR SELECT TO authenticated
  USING ("deletedAt" IS NULL AND public.can_handle_pr());
CREATE POLICY "PrTicket_insert_submitter" ON "PrTicket" FOR INSERT TO authenticated
  WITH CHECK ("submitterId" = public.current_app_user_id() AND "deletedAt" IS NULL);
CREATE POLICY "PrTicket_update_handler" ON "PrTicket" FOR UPDATE TO authenticated
  USING ("deletedAt" IS NULL AND public.can_handle_pr())
  WITH CHECK ("deletedAt" IS NULL AND public.can_handle_pr());
CREATE POLICY "PrTicket_delete_handler" ON "PrTicket" FOR DELETE TO authenticated
  USING (public.current_user_role() IS NOT NULL AND public.can_handle_pr());

-- ShopOrder
CREATE POLICY "ShopOrder_select_buyer" ON "ShopOrder" FOR SELECT TO authenticated
  USING ("buyerId" = public.current_app_user_id());
CREATE POLICY "ShopOrder_select_staff" ON "ShopOrder" FOR SELECT TO authenticated
  USING (public.can_handle_shop());
CREATE POLICY "ShopOrder_insert_buyer" ON "ShopOrder" FOR INSERT TO authenticated
  WITH CHECK ("buyerId" = public.current_app_user_id() AND "status" = 'PENDING');
CREATE POLICY "ShopOrder_update_buyer" ON "ShopOrder" FOR UPDATE TO authenticated
  USING ("buyerId" = public.current_app_user_id() AND "status" IN ('PENDING', 'REVIEW', 'SLIP_MISMATCH'))
  WITH CHECK ("buyerId" = public.current_app_user_id() AND "status" IN ('PENDING', 'REVIEW', 'SLIP_MISMATCH'));
CREATE POLICY "ShopOrder_all_staff" ON "ShopOrder" FOR ALL TO authenticated
  USING (public.can_handle_shop()) WITH CHECK (public.can_handle_shop());

-- Team tree: no public reads, get_public_org_chart is the public face
CREATE POLICY "TeamNode_select_staff" ON "TeamNode" FOR SELECT TO authenticated
  USING (public.current_user_is_staff());
CREATE POLICY "TeamNode_write_admin" ON "TeamNode" FOR ALL TO authenticated
  USING (public.current_user_is_admin()) WITH CHECK (public.current_user_is_admin());
CREATE POLICY "TeamMember_select_staff_or_self" ON "TeamMember" FOR SELECT TO authenticated
  USING (public.current_user_is_staff() OR "userId" = public.current_app_user_id());
CREATE POLICY "TeamMember_write_admin" ON "TeamMember" FOR ALL TO authenticated
  USING (public.current_user_is_admin()) WITH CHECK (public.current_user_is_admin());
CREATE POLICY "TeamMemberToTeamNode_select_staff" ON "_TeamMemberToTeamNode" FOR SELECT TO authenticated
  USING (public.current_user_is_staff());
CREATE POLICY "TeamMemberToTeamNode_write_admin" ON "_TeamMemberToTeamNode" FOR ALL TO authenticated
  USING (public.current_user_is_admin()) WITH CHECK (public.current_user_is_admin());

-- Projects: readable by everyone, settings by staff only
CREATE POLICY "ProjectSetting_staff" ON "ProjectSetting" FOR ALL TO authenticated
  USING (public.current_user_is_staff()) WITH CHECK (public.current_user_is_staff());
CREATE POLICY "Project_select_all" ON "Project" FOR SELECT TO anon, authenticated USING (true);
CREATE POLICY "Project_write_owner" ON "Project" FOR ALL TO authenticated
  USING ("ownerId" = public.current_app_user_id()) WITH CHECK ("ownerId" = public.current_app_user_id());
CREATE POLICY "ProjectDocument_select_all" ON "ProjectDocument" FOR SELECT TO anon, authenticated USING (true);
CREATE POLICY "ProjectDocument_write_actor" ON "ProjectDocument" FOR ALL TO authenticated
  USING (public.current_user_is_project_actor("projectId")) WITH CHECK (public.current_user_is_project_actor("projectId"));
CREATE POLICY "ProjectFile_select_all" ON "ProjectFile" FOR SELECT TO anon, authenticated USING (true);
CREATE POLICY "ProjectFile_insert_actor" ON "ProjectFile" FOR INSERT TO authenticated
  WITH CHECK ("uploadedById" = public.current_app_user_id() AND public.current_user_is_project_actor("projectId"));
CREATE POLICY "ProjectFile_insert_professor" ON "ProjectFile" FOR INSERT TO authenticated
  WITH CHECK (
    "uploadedById" = public.current_app_user_id()
    AND public.current_user_role() = 'SA_PROF'
    AND EXISTS (SELECT 1 FROM "ProjectSignRequest" r
                WHERE r."projectId" = "ProjectFile"."projectId" AND r."professorId" = public.current_app_user_id())
  );
CREATE POLICY "ProjectSignRequest_select_party" ON "ProjectSignRequest" FOR SELECT TO authenticated
  USING ("actorId" = public.current_app_user_id() OR "professorId" = public.current_app_user_id());
CREATE POLICY "ProjectSignRequest_insert_actor" ON "ProjectSignRequest" FOR INSERT TO authenticated
  WITH CHECK ("actorId" = public.current_app_user_id());

-- Student records
CREATE POLICY "StudentRecord_select_own_or_admin" ON "StudentRecord" FOR SELECT TO authenticated
  USING ("userId" = public.current_app_user_id() OR public.current_user_is_admin());
CREATE POLICY "StudentRecord_write_admin" ON "StudentRecord" FOR ALL TO authenticated
  USING (public.current_user_is_admin()) WITH CHECK (public.current_user_is_admin());
CREATE POLICY "StudentChangeRequest_admin" ON "StudentChangeRequest" FOR ALL TO authenticated
  USING (public.current_user_is_admin()) WITH CHECK (public.current_user_is_admin());

-- Identity conflicts
CREATE POLICY "IdentityConflict_select_admin_or_person" ON "IdentityConflict" FOR SELECT TO authenticated
  USING (public.current_user_is_admin() OR "personId" = public.my_person_id());

-- Passport
CREATE POLICY "Profile_select_owner_or_admin" ON passport."Profile" FOR SELECT TO authenticated
  USING ("userId" = public.current_app_user_id() OR public.current_user_is_admin());
CREATE POLICY "Profile_update_owner" ON passport."Profile" FOR UPDATE TO authenticated
  USING ("userId" = public.current_app_user_id()) WITH CHECK ("userId" = public.current_app_user_id());
CREATE POLICY "Activity_select_owner_or_admin" ON passport."Activity" FOR SELECT TO authenticated
  USING (public.current_user_is_admin() OR EXISTS (
    SELECT 1 FROM passport."Profile" p WHERE p."id" = "Activity"."profileId" AND p."userId" = public.current_app_user_id()));

CREATE VIEW passport.user_tiers WITH (security_invoker = true) AS
  SELECT p."id" AS "profileId", p."userId", p."displayName", p."points",
         CASE WHEN p."points" >= 1000 THEN 'GOLD'::passport."Tier"
              WHEN p."points" >= 300 THEN 'SILVER'::passport."Tier"
              ELSE 'BRONZE'::passport."Tier" END AS "tier"
  FROM passport."Profile" p;

------------------------------------------------------------------------------------------------
-- Grants. Supabase grants anon/authenticated everything on tables in public by default; the
-- passport schema is ours, so nothing there is granted until we say so.
------------------------------------------------------------------------------------------------

GRANT USAGE ON SCHEMA passport TO anon, authenticated;
GRANT SELECT, UPDATE ON passport."Profile" TO authenticated;
GRANT SELECT ON passport."Activity" TO authenticated;
GRANT SELECT ON passport.user_tiers TO authenticated;

GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO authenticated;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO anon;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO authenticated;
