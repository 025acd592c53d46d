-- Custom migration: row security. Every table: RLS enabled and FORCEd (the legacy app's
-- migration user owns the tables and must not read around the rules by accident), explicit
-- grants per role (we do not rely on Supabase's default privileges: they are revoked first).
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM anon, authenticated;
--> statement-breakpoint
REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM anon, authenticated;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE ALL ON TABLES FROM anon, authenticated;
--> statement-breakpoint
ALTER TABLE public.departments ENABLE ROW LEVEL SECURITY;
ALTER TABLE public.departments FORCE ROW LEVEL SECURITY;
ALTER TABLE public.users ENABLE ROW LEVEL SECURITY;
ALTER TABLE public.users FORCE ROW LEVEL SECURITY;
ALTER TABLE public.vs_categories ENABLE ROW LEVEL SECURITY;
ALTER TABLE public.vs_categories FORCE ROW LEVEL SECURITY;
ALTER TABLE public.vs_tickets ENABLE ROW LEVEL SECURITY;
ALTER TABLE public.vs_tickets FORCE ROW LEVEL SECURITY;
ALTER TABLE public.vs_public_comments ENABLE ROW LEVEL SECURITY;
ALTER TABLE public.vs_public_comments FORCE ROW LEVEL SECURITY;
ALTER TABLE public.pr_tickets ENABLE ROW LEVEL SECURITY;
ALTER TABLE public.pr_tickets FORCE ROW LEVEL SECURITY;
ALTER TABLE public.shop_orders ENABLE ROW LEVEL SECURITY;
ALTER TABLE public.shop_orders FORCE ROW LEVEL SECURITY;
ALTER TABLE public.team_nodes ENABLE ROW LEVEL SECURITY;
ALTER TABLE public.team_nodes FORCE ROW LEVEL SECURITY;
ALTER TABLE public.team_members ENABLE ROW LEVEL SECURITY;
ALTER TABLE public.team_members FORCE ROW LEVEL SECURITY;
ALTER TABLE public.projects ENABLE ROW LEVEL SECURITY;
ALTER TABLE public.projects FORCE ROW LEVEL SECURITY;
ALTER TABLE public.project_documents ENABLE ROW LEVEL SECURITY;
ALTER TABLE public.project_documents FORCE ROW LEVEL SECURITY;
ALTER TABLE public.project_files ENABLE ROW LEVEL SECURITY;
ALTER TABLE public.project_files FORCE ROW LEVEL SECURITY;
ALTER TABLE public.project_sign_requests ENABLE ROW LEVEL SECURITY;
ALTER TABLE public.project_sign_requests FORCE ROW LEVEL SECURITY;
ALTER TABLE public.project_settings ENABLE ROW LEVEL SECURITY;
ALTER TABLE public.project_settings FORCE ROW LEVEL SECURITY;
ALTER TABLE public.student_records ENABLE ROW LEVEL SECURITY;
ALTER TABLE public.student_records FORCE ROW LEVEL SECURITY;
ALTER TABLE public.student_change_requests ENABLE ROW LEVEL SECURITY;
ALTER TABLE public.student_change_requests FORCE ROW LEVEL SECURITY;
ALTER TABLE public.identity_conflicts ENABLE ROW LEVEL SECURITY;
ALTER TABLE public.identity_conflicts FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
-- Grants (rule 16): anon reads only public catalogues and projects.
GRANT SELECT ON public.departments, public.vs_categories TO anon, authenticated;
GRANT SELECT ON public.projects, public.project_documents, public.project_files TO anon;
GRANT SELECT, INSERT ON public.pr_tickets TO anon;
GRANT SELECT, UPDATE ON public.users TO authenticated;
GRANT SELECT, INSERT, UPDATE, DELETE ON public.vs_tickets TO authenticated;
GRANT SELECT ON public.vs_public_comments TO anon, authenticated;
GRANT SELECT, INSERT, UPDATE, DELETE ON public.pr_tickets TO authenticated;
GRANT SELECT, INSERT, UPDATE ON public.shop_orders TO authenticated;
GRANT SELECT ON public.team_nodes, public.team_members TO authenticated;
GRANT SELECT, INSERT, UPDATE, DELETE ON public.projects, public.project_documents, public.project_files TO authenticated;
GRANT SELECT, INSERT, UPDATE ON public.project_sign_requests TO authenticated;
GRANT SELECT, UPDATE ON public.project_settings TO authenticated;
GRANT SELECT ON public.student_records TO authenticated;
GRANT SELECT, UPDATE ON public.student_change_requests TO authenticated;
GRANT SELECT ON public.identity_conflicts TO authenticated;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO authenticated;
--> statement-breakpoint
-- The public VS board (rule 13): a security_barrier view with the owner's rights, so anon can
-- list published problems without any read rule on vs_tickets. Only staff-written headlines,
-- never the report's text; unknown categories hide the ticket.
CREATE VIEW public.public_vs_board WITH (security_barrier = true) AS
  SELECT t.id, t.public_title, t.status, c.name AS category_name, t.created_at
    FROM public.vs_tickets t
    JOIN public.vs_categories c ON c.id = t.category_id
   WHERE t.is_public
     AND t.deleted_at IS NULL
     AND NOT c.is_confidential
     AND c.public_eligible
     AND nullif(btrim(t.public_title), '') IS NOT NULL;
--> statement-breakpoint
GRANT SELECT ON public.public_vs_board TO anon, authenticated;
--> statement-breakpoint
-- Submitter-facing ticket list (rule 12): an explicit column allow-list, is_duplicate instead
-- of duplicate_of, remarks without internal ones.
CREATE VIEW public.my_vs_tickets WITH (security_barrier = true) AS
  SELECT t.id, t.target_dept, t.status, t.category_id, t.title, t.body, t.is_public,
         t.public_title, t.is_duplicate,
         coalesce((SELECT jsonb_agg(r ORDER BY ord)
                     FROM jsonb_array_elements(t.remarks) WITH ORDINALITY AS e(r, ord)
                    WHERE NOT coalesce((r ->> 'internal')::boolean, false)
                      AND r ->> 'vis' = 'ticket'), '[]'::jsonb) AS remarks,
         t.created_at, t.updated_at
    FROM public.vs_tickets t
   WHERE t.submitter_id = public.current_app_user_id()
     AND t.deleted_at IS NULL;
--> statement-breakpoint
GRANT SELECT ON public.my_vs_tickets TO authenticated;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.is_addressed_professor(p_document_id text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT coalesce(public.current_user_role() = 'sa_prof', false)
     AND EXISTS (SELECT 1 FROM public.project_sign_requests r
                  WHERE r.document_id = p_document_id
                    AND r.professor_id = public.current_app_user_id()
                    AND r.status = 'requested')
$$;
--> statement-breakpoint
-- departments, categories: catalogues. Admins maintain them through the dashboard.
CREATE POLICY departments_read ON public.departments FOR SELECT TO anon, authenticated USING (true);
CREATE POLICY vs_categories_read ON public.vs_categories FOR SELECT TO anon, authenticated USING (true);
--> statement-breakpoint
-- users: own row, staff read all; update own row (column guard in 0004) or any row as admin.
CREATE POLICY users_select ON public.users FOR SELECT TO authenticated
  USING (id = (SELECT public.current_app_user_id()) OR (SELECT public.current_user_is_staff()));
CREATE POLICY users_update ON public.users FOR UPDATE TO authenticated
  USING (id = (SELECT public.current_app_user_id()) OR (SELECT public.current_user_is_admin()))
  WITH CHECK (id = (SELECT public.current_app_user_id()) OR (SELECT public.current_user_is_admin()));
--> statement-breakpoint
-- vs_tickets: the table is the handlers' view. Submitters read their tickets through
-- public.my_vs_tickets (an allow-list of columns, rule 12) and write remarks through
-- vs_add_remark(); they may file a new ticket here.
CREATE POLICY vs_tickets_select ON public.vs_tickets FOR SELECT TO authenticated
  USING (deleted_at IS NULL AND public.can_handle_vs(target_dept));
CREATE POLICY vs_tickets_insert ON public.vs_tickets FOR INSERT TO authenticated
  WITH CHECK (
    submitter_id = (SELECT public.current_app_user_id())
    AND deleted_at IS NULL
    AND (
      public.can_handle_vs(target_dept)
      OR (status = 'open' AND NOT is_public AND public_title IS NULL AND duplicate_of IS NULL
          AND tags = '{}'::text[] AND remarks = '[]'::jsonb)
    )
  );
CREATE POLICY vs_tickets_update ON public.vs_tickets FOR UPDATE TO authenticated
  USING (public.can_handle_vs(target_dept))
  WITH CHECK (public.can_handle_vs(target_dept));
CREATE POLICY vs_tickets_delete ON public.vs_tickets FOR DELETE TO authenticated
  USING (public.current_user_is_staff() AND public.can_handle_vs(target_dept));
--> statement-breakpoint
CREATE POLICY vs_public_comments_read ON public.vs_public_comments FOR SELECT TO anon, authenticated
  USING (EXISTS (SELECT 1 FROM public.public_vs_board b WHERE b.id = ticket_id));
--> statement-breakpoint
-- pr_tickets: guests and users file tickets; submitters read their own; PR handlers all.
CREATE POLICY pr_tickets_select ON public.pr_tickets FOR SELECT TO authenticated
  USING (deleted_at IS NULL AND (submitter_id = (SELECT public.current_app_user_id()) OR public.can_handle_pr()));
CREATE POLICY pr_tickets_insert_guest ON public.pr_tickets FOR INSERT TO anon
  WITH CHECK (submitter_id IS NULL AND status = 'new' AND deleted_at IS NULL AND staff_note IS NULL);
CREATE POLICY pr_tickets_insert ON public.pr_tickets FOR INSERT TO authenticated
  WITH CHECK (
    deleted_at IS NULL
    AND (public.can_handle_pr()
         OR (submitter_id = (SELECT public.current_app_user_id()) AND status = 'new' AND staff_note IS NULL))
  );
CREATE POLICY pr_tickets_update ON public.pr_tickets FOR UPDATE TO authenticated
  USING (deleted_at IS NULL AND (submitter_id = (SELECT public.current_app_user_id()) OR public.can_handle_pr()))
  WITH CHECK (submitter_id = (SELECT public.current_app_user_id()) OR public.can_handle_pr());
CREATE POLICY pr_tickets_delete ON public.pr_tickets FOR DELETE TO authenticated
  USING (public.current_user_is_staff() AND public.can_handle_pr());
--> statement-breakpoint
-- shop_orders: a buyer's own order, editable while it awaits payment; shop staff all.
CREATE POLICY shop_orders_select ON public.shop_orders FOR SELECT TO authenticated
  USING (buyer_id = (SELECT public.current_app_user_id()) OR public.can_manage_shop());
CREATE POLICY shop_orders_insert ON public.shop_orders FOR INSERT TO authenticated
  WITH CHECK (
    public.can_manage_shop()
    OR (buyer_id = (SELECT public.current_app_user_id()) AND status = 'pending'
        AND admin_note IS NULL AND timeline = '[]'::jsonb)
  );
CREATE POLICY shop_orders_update ON public.shop_orders FOR UPDATE TO authenticated
  USING (public.can_manage_shop()
         OR (buyer_id = (SELECT public.current_app_user_id()) AND status IN ('pending', 'review', 'slip_mismatch')))
  WITH CHECK (public.can_manage_shop()
         OR (buyer_id = (SELECT public.current_app_user_id()) AND status IN ('pending', 'review', 'slip_mismatch')));
--> statement-breakpoint
-- Team tree: signed-in members see the tree; a member row is visible to that member (matched
-- by account, or by invitation e-mail before sign-up) and to staff. Anon: nothing (rule 11).
CREATE POLICY team_nodes_select ON public.team_nodes FOR SELECT TO authenticated USING (true);
CREATE POLICY team_members_select ON public.team_members FOR SELECT TO authenticated
  USING (user_id = (SELECT public.current_app_user_id())
         OR lower(kkumail) = lower((SELECT auth.email()))
         OR (SELECT public.current_user_is_staff()));
--> statement-breakpoint
-- Projects: readable by everyone (rule 10); written by project actors.
CREATE POLICY projects_read ON public.projects FOR SELECT TO anon, authenticated USING (true);
CREATE POLICY project_documents_read ON public.project_documents FOR SELECT TO anon, authenticated USING (true);
CREATE POLICY project_files_read ON public.project_files FOR SELECT TO anon, authenticated USING (true);
CREATE POLICY projects_write ON public.projects FOR ALL TO authenticated
  USING (public.current_user_is_project_actor()) WITH CHECK (public.current_user_is_project_actor());
CREATE POLICY project_documents_write ON public.project_documents FOR ALL TO authenticated
  USING (public.current_user_is_project_actor()) WITH CHECK (public.current_user_is_project_actor());
CREATE POLICY project_files_write ON public.project_files FOR ALL TO authenticated
  USING (public.current_user_is_project_actor()) WITH CHECK (public.current_user_is_project_actor());
-- A professor uploads the signed file of a document addressed to them.
CREATE POLICY project_files_professor_upload ON public.project_files FOR INSERT TO authenticated
  WITH CHECK (
    is_signed
    AND uploaded_by = (SELECT public.current_app_user_id())
    AND public.is_addressed_professor(document_id)
  );
CREATE POLICY project_sign_requests_select ON public.project_sign_requests FOR SELECT TO authenticated
  USING (actor_id = (SELECT public.current_app_user_id()) OR professor_id = (SELECT public.current_app_user_id()));
CREATE POLICY project_sign_requests_insert ON public.project_sign_requests FOR INSERT TO authenticated
  WITH CHECK (actor_id = (SELECT public.current_app_user_id()) AND public.current_user_is_project_actor()
              AND status = 'requested');
CREATE POLICY project_sign_requests_answer ON public.project_sign_requests FOR UPDATE TO authenticated
  USING (professor_id = (SELECT public.current_app_user_id()))
  WITH CHECK (professor_id = (SELECT public.current_app_user_id()));
CREATE POLICY project_settings_staff ON public.project_settings FOR SELECT TO authenticated
  USING ((SELECT public.current_user_is_staff()));
CREATE POLICY project_settings_admin_update ON public.project_settings FOR UPDATE TO authenticated
  USING ((SELECT public.current_user_is_admin())) WITH CHECK ((SELECT public.current_user_is_admin()));
--> statement-breakpoint
-- Student records: the student and university staff / admins. Change requests: admins only;
-- the student sees outcomes through get_my_student_record() (rule 18).
CREATE POLICY student_records_select ON public.student_records FOR SELECT TO authenticated
  USING (user_id = (SELECT public.current_app_user_id())
         OR coalesce((SELECT public.current_user_role()) = 'uni_staff', false)
         OR (SELECT public.current_user_is_admin()));
CREATE POLICY student_change_requests_admin ON public.student_change_requests FOR SELECT TO authenticated
  USING ((SELECT public.current_user_is_admin()));
CREATE POLICY student_change_requests_admin_decide ON public.student_change_requests FOR UPDATE TO authenticated
  USING ((SELECT public.current_user_is_admin())) WITH CHECK ((SELECT public.current_user_is_admin()));
CREATE POLICY identity_conflicts_select ON public.identity_conflicts FOR SELECT TO authenticated
  USING ((SELECT public.current_user_is_admin()) OR person_id = (SELECT public.my_person_id()));
