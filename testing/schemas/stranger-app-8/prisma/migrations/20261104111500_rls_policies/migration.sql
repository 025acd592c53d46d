-- Hand-written: row level security for the Supabase REST API.
-- Prisma connects as postgres (bypasses RLS); these apply to anon / authenticated.

ALTER TABLE "User" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "VsCategory" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "VsTicket" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "VsPublicComment" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "PrTicket" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "ShopOrder" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "TeamNode" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "TeamMember" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "Project" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "ProjectDocument" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "ProjectFile" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "ProjectSignRequest" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "ProjectSetting" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "StudentRecord" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "StudentChangeRequest" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "Person" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "IdentityConflict" ENABLE ROW LEVEL SECURITY;
ALTER TABLE "_ProjectToUser" ENABLE ROW LEVEL SECURITY;
ALTER TABLE passport.profiles ENABLE ROW LEVEL SECURITY;
ALTER TABLE passport.activities ENABLE ROW LEVEL SECURITY;

-- Grants: we don't rely on Supabase's defaults; every table says who may touch it.
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM anon, authenticated;
GRANT SELECT ON "VsCategory", "Project", "ProjectDocument", "ProjectFile" TO anon;
GRANT SELECT, INSERT ON "PrTicket" TO anon;
GRANT SELECT, UPDATE ON "User" TO authenticated;
GRANT SELECT, INSERT, UPDATE, DELETE ON "VsCategory" TO authenticated;
GRANT SELECT, INSERT, UPDATE, DELETE ON "VsTicket" TO authenticated;
GRANT SELECT ON "VsPublicComment" TO anon, authenticated;
GRANT SELECT, INSERT, UPDATE, DELETE ON "PrTicket" TO authenticated;
GRANT SELECT, INSERT, UPDATE, DELETE ON "ShopOrder" TO authenticated;
GRANT SELECT, INSERT, UPDATE, DELETE ON "TeamNode", "TeamMember" TO authenticated;
GRANT SELECT, INSERT, UPDATE ON "Project", "ProjectDocument", "ProjectFile" TO authenticated;
GRANT SELECT, INSERT, UPDATE ON "ProjectSignRequest" TO authenticated;
GRANT SELECT, INSERT, UPDATE ON "_ProjectToUser" TO authenticated;
GRANT SELECT, INSERT, UPDATE, DELETE ON "ProjectSetting" TO authenticated;
GRANT SELECT ON "StudentRecord" TO authenticated;
GRANT SELECT, INSERT, UPDATE, DELETE ON "StudentChangeRequest" TO authenticated;
GRANT SELECT ON "Person" TO authenticated;
GRANT SELECT ON "IdentityConflict" TO authenticated;

GRANT USAGE ON SCHEMA passport TO anon, authenticated;
GRANT SELECT, UPDATE ON passport.profiles TO authenticated;
GRANT SELECT ON passport.activities TO authenticated;

-- ---------------------------------------------------------------- User
CREATE POLICY "User_select" ON "User" FOR SELECT TO authenticated
  USING ("id" = public.request_user_id() OR public.current_user_is_staff());
CREATE POLICY "User_update" ON "User" FOR UPDATE TO authenticated
  USING ("id" = public.request_user_id() OR public.current_user_is_admin())
  WITH CHECK ("id" = public.request_user_id() OR public.current_user_is_admin());

-- ---------------------------------------------------------------- VsCategory
CREATE POLICY "VsCategory_select" ON "VsCategory" FOR SELECT TO anon, authenticated USING (true);
CREATE POLICY "VsCategory_write" ON "VsCategory" FOR ALL TO authenticated
  USING (public.current_user_is_admin()) WITH CHECK (public.current_user_is_admin());

-- ---------------------------------------------------------------- VsTicket
CREATE POLICY "VsTicket_select" ON "VsTicket" FOR SELECT TO authenticated
  USING ("deletedAt" IS NULL
         AND ("submitterId" = public.request_user_id() OR public.current_user_can_handle_vs("targetDept")));
-- Students file plain tickets; staff decide the rest later.
CREATE POLICY "VsTicket_insert" ON "VsTicket" FOR INSERT TO authenticated
  WITH CHECK ("submitterId" = public.request_user_id()
              AND public.current_user_role() IS NOT NULL
              AND "status" = 'open' AND NOT "isPublic" AND "publicTitle" IS NULL
              AND "duplicateOfId" IS NULL AND coalesce(cardinality("tags"), 0) = 0
              AND "remarks" = '[]'::jsonb AND "deletedAt" IS NULL);
CREATE POLICY "VsTicket_update" ON "VsTicket" FOR UPDATE TO authenticated
  USING ("deletedAt" IS NULL
         AND ("submitterId" = public.request_user_id() OR public.current_user_can_handle_vs("targetDept")))
  WITH CHECK ("submitterId" = public.request_user_id() OR public.current_user_can_handle_vs("targetDept"));
CREATE POLICY "VsTicket_delete" ON "VsTicket" FOR DELETE TO authenticated
  USING (public.current_user_is_staff() AND public.current_user_can_handle_vs("targetDept"));

-- Public comments: readable where the ticket is on the board; written by rpc only.
CREATE POLICY "VsPublicComment_select" ON "VsPublicComment" FOR SELECT TO anon, authenticated
  USING (public.vs_ticket_on_board("ticketId"));

-- ---------------------------------------------------------------- PrTicket
CREATE POLICY "PrTicket_select" ON "PrTicket" FOR SELECT TO authenticated
  USING ("deletedAt" IS NULL
         AND ("submitterId" = public.request_user_id() OR public.current_user_can_handle_pr()));
-- Guests submit too (they track it with get_pr_ticket_by_id, so return=minimal).
CREATE POLICY "PrTicket_insert_anon" ON "PrTicket" FOR INSERT TO anon
  WITH CHECK ("submitterId" IS NULL AND "status" = 'submitted' AND "deletedAt" IS NULL);
CREATE POLICY "PrTicket_insert" ON "PrTicket" FOR INSERT TO authenticated
  WITH CHECK ("submitterId" = public.request_user_id() AND "status" = 'submitted' AND "deletedAt" IS NULL);
CREATE POLICY "PrTicket_update" ON "PrTicket" FOR UPDATE TO authenticated
  USING ("deletedAt" IS NULL AND ("submitterId" = public.request_user_id() OR public.current_user_can_handle_pr()))
  WITH CHECK ("submitterId" = public.request_user_id() OR public.current_user_can_handle_pr());
CREATE POLICY "PrTicket_delete" ON "PrTicket" FOR DELETE TO authenticated
  USING (public.current_user_is_staff() AND public.current_user_can_handle_pr());

-- ---------------------------------------------------------------- ShopOrder
CREATE POLICY "ShopOrder_select" ON "ShopOrder" FOR SELECT TO authenticated
  USING ("buyerId" = public.request_user_id() OR public.current_user_can_handle_shop());
CREATE POLICY "ShopOrder_insert" ON "ShopOrder" FOR INSERT TO authenticated
  WITH CHECK ("buyerId" = public.request_user_id() AND "status" = 'pending'
              AND "adminNote" IS NULL AND "timeline" = '[]'::jsonb);
CREATE POLICY "ShopOrder_update_buyer" ON "ShopOrder" FOR UPDATE TO authenticated
  USING ("buyerId" = public.request_user_id() AND "status" IN ('pending','review','slip_mismatch'))
  WITH CHECK ("buyerId" = public.request_user_id() AND "status" IN ('pending','review','slip_mismatch'));
CREATE POLICY "ShopOrder_update_handler" ON "ShopOrder" FOR UPDATE TO authenticated
  USING (public.current_user_can_handle_shop()) WITH CHECK (public.current_user_can_handle_shop());
CREATE POLICY "ShopOrder_delete" ON "ShopOrder" FOR DELETE TO authenticated
  USING (public.current_user_is_admin());

-- ---------------------------------------------------------------- Team
CREATE POLICY "TeamNode_select" ON "TeamNode" FOR SELECT TO authenticated USING (true);
CREATE POLICY "TeamNode_write" ON "TeamNode" FOR ALL TO authenticated
  USING (public.current_user_is_admin()) WITH CHECK (public.current_user_is_admin());
-- No anon policy at all: the public sees the chart through get_public_org_chart only.
CREATE POLICY "TeamMember_select" ON "TeamMember" FOR SELECT TO authenticated
  USING ("userId" = public.request_user_id() OR public.current_user_is_admin());
CREATE POLICY "TeamMember_write" ON "TeamMember" FOR ALL TO authenticated
  USING (public.current_user_is_admin()) WITH CHECK (public.current_user_is_admin());

-- ---------------------------------------------------------------- Projects
CREATE POLICY "Project_select" ON "Project" FOR SELECT TO anon, authenticated USING (true);
CREATE POLICY "Project_insert" ON "Project" FOR INSERT TO authenticated
  WITH CHECK ("ownerId" = public.request_user_id());
CREATE POLICY "Project_update" ON "Project" FOR UPDATE TO authenticated
  USING (public.current_user_is_project_actor("id") OR public.current_user_is_admin())
  WITH CHECK (public.current_user_is_project_actor("id") OR public.current_user_is_admin());
CREATE POLICY "ProjectDocument_select" ON "ProjectDocument" FOR SELECT TO anon, authenticated USING (true);
CREATE POLICY "ProjectDocument_write" ON "ProjectDocument" FOR INSERT TO authenticated
  WITH CHECK (public.current_user_is_project_actor("projectId"));
CREATE POLICY "ProjectDocument_update" ON "ProjectDocument" FOR UPDATE TO authenticated
  USING (public.current_user_is_project_actor("projectId"))
  WITH CHECK (public.current_user_is_project_actor("projectId"));
CREATE POLICY "ProjectFile_select" ON "ProjectFile" FOR SELECT TO anon, authenticated USING (true);
-- Actors upload drafts; an addressed professor uploads the signed file.
CREATE POLICY "ProjectFile_insert" ON "ProjectFile" FOR INSERT TO authenticated
  WITH CHECK ("uploadedById" = public.request_user_id()
              AND (public.current_user_is_project_actor("projectId")
                   OR public.current_user_is_addressed_professor("projectId")));
CREATE POLICY "ProjectSignRequest_select" ON "ProjectSignRequest" FOR SELECT TO authenticated
  USING ("actorId" = public.request_user_id() OR "professorId" = public.request_user_id()
         OR public.current_user_is_admin());
CREATE POLICY "ProjectSignRequest_insert" ON "ProjectSignRequest" FOR INSERT TO authenticated
  WITH CHECK ("actorId" = public.request_user_id() AND public.current_user_is_project_actor("projectId"));
CREATE POLICY "ProjectSignRequest_update" ON "ProjectSignRequest" FOR UPDATE TO authenticated
  USING ("professorId" = public.request_user_id()) WITH CHECK ("professorId" = public.request_user_id());
CREATE POLICY "ProjectToUser_select" ON "_ProjectToUser" FOR SELECT TO authenticated
  USING ("B" = public.request_user_id() OR public.current_user_is_project_actor("A"));
CREATE POLICY "ProjectToUser_insert" ON "_ProjectToUser" FOR INSERT TO authenticated
  WITH CHECK (public.current_user_is_project_actor("A"));
CREATE POLICY "ProjectSetting_staff" ON "ProjectSetting" FOR SELECT TO authenticated
  USING (public.current_user_is_staff());
CREATE POLICY "ProjectSetting_admin" ON "ProjectSetting" FOR ALL TO authenticated
  USING (public.current_user_is_admin()) WITH CHECK (public.current_user_is_admin());

-- ---------------------------------------------------------------- Students
CREATE POLICY "StudentRecord_select" ON "StudentRecord" FOR SELECT TO authenticated
  USING ("userId" = public.request_user_id() OR public.current_user_is_admin());
CREATE POLICY "StudentChangeRequest_admin" ON "StudentChangeRequest" FOR ALL TO authenticated
  USING (public.current_user_is_admin()) WITH CHECK (public.current_user_is_admin());
CREATE POLICY "Person_select" ON "Person" FOR SELECT TO authenticated
  USING ("userId" = public.request_user_id() OR public.current_user_is_admin());
CREATE POLICY "IdentityConflict_select" ON "IdentityConflict" FOR SELECT TO authenticated
  USING ("personId" = public.my_person_id() OR public.current_user_is_admin());

-- ---------------------------------------------------------------- Passport
CREATE POLICY "profiles_select" ON passport.profiles FOR SELECT TO authenticated
  USING ("userId" = public.request_user_id() OR public.current_user_is_admin());
CREATE POLICY "profiles_update" ON passport.profiles FOR UPDATE TO authenticated
  USING ("userId" = public.request_user_id() OR public.current_user_is_admin())
  WITH CHECK ("userId" = public.request_user_id() OR public.current_user_is_admin());
CREATE OR REPLACE FUNCTION passport.my_profile_id() RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT p."id" FROM passport.profiles p WHERE p."userId" = public.request_user_id()
$$;
CREATE POLICY "activities_select" ON passport.activities FOR SELECT TO authenticated
  USING ("profileId" = passport.my_profile_id() OR public.current_user_is_admin());

CREATE VIEW passport.user_tiers WITH (security_invoker = true) AS
  SELECT p."id" AS "profileId", p."userId", coalesce(sum(a."points"), 0)::int AS "points",
         CASE WHEN coalesce(sum(a."points"), 0) >= 100 THEN 'gold'
              WHEN coalesce(sum(a."points"), 0) >= 40 THEN 'silver'
              ELSE 'bronze' END AS "tier"
  FROM passport.profiles p LEFT JOIN passport.activities a ON a."profileId" = p."id"
  GROUP BY p."id", p."userId";
GRANT SELECT ON passport.user_tiers TO authenticated;
