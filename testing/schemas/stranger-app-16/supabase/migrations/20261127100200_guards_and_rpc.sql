-- Custom SQL migration file, put your code below! --
-- Everything drizzle-kit does not generate: updated_at, the owner guards (rule 1), the rpc
-- functions of the API (spec 4.2), the passport view and the grants.

CREATE OR REPLACE FUNCTION public.touch_updated_at()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = ''
AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "profiles_touch" BEFORE UPDATE ON "public"."profiles" FOR EACH ROW EXECUTE FUNCTION public.touch_updated_at();
--> statement-breakpoint
CREATE TRIGGER "vs_tickets_touch" BEFORE UPDATE ON "public"."vs_tickets" FOR EACH ROW EXECUTE FUNCTION public.touch_updated_at();
--> statement-breakpoint
CREATE TRIGGER "shop_orders_touch" BEFORE UPDATE ON "public"."shop_orders" FOR EACH ROW EXECUTE FUNCTION public.touch_updated_at();
--> statement-breakpoint
CREATE TRIGGER "passport_profiles_touch" BEFORE UPDATE ON "passport"."profiles" FOR EACH ROW EXECUTE FUNCTION public.touch_updated_at();
--> statement-breakpoint

-- Trusted writes (our own definer functions) set app.trusted_write for their transaction;
-- the guards let those through like the server.
CREATE OR REPLACE FUNCTION public.is_trusted_write()
RETURNS boolean
LANGUAGE sql STABLE
SET search_path = ''
AS $$
  SELECT auth.uid() IS NULL OR coalesce(current_setting('app.trusted_write', true), '') = 'on';
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.changed_outside(p_new jsonb, p_old jsonb, p_allowed text[])
RETURNS boolean
LANGUAGE sql IMMUTABLE
SET search_path = ''
AS $$
  SELECT (p_new - p_allowed) IS DISTINCT FROM (p_old - p_allowed);
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.guard_profiles()
RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
  IF public.is_trusted_write() OR public.current_user_is_staff() THEN
    RETURN NEW;
  END IF;
  IF OLD.id = auth.uid()
     AND public.changed_outside(to_jsonb(NEW), to_jsonb(OLD), ARRAY['full_name', 'updated_at']) THEN
    RAISE EXCEPTION 'only full_name may be changed on your own profile' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "profiles_guard" BEFORE UPDATE ON "public"."profiles" FOR EACH ROW EXECUTE FUNCTION public.guard_profiles();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.guard_vs_tickets()
RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
  v_old_len integer := jsonb_array_length(OLD.remarks);
  v_entry jsonb;
BEGIN
  IF public.is_trusted_write() OR public.can_handle_vs(OLD.target_dept) OR public.current_user_is_admin() THEN
    RETURN NEW;
  END IF;
  IF OLD.submitter_id <> auth.uid() THEN
    RETURN NEW;
  END IF;
  IF public.changed_outside(to_jsonb(NEW), to_jsonb(OLD), ARRAY['body', 'remarks', 'updated_at', 'is_duplicate']) THEN
    RAISE EXCEPTION 'submitters may only edit the report and add remarks' USING ERRCODE = '42501';
  END IF;
  IF NEW.remarks IS DISTINCT FROM OLD.remarks THEN
    IF jsonb_typeof(NEW.remarks) <> 'array'
       OR jsonb_array_length(NEW.remarks) < v_old_len
       OR (SELECT coalesce(jsonb_agg(e ORDER BY i), '[]'::jsonb)
             FROM jsonb_array_elements(NEW.remarks) WITH ORDINALITY AS r(e, i)
            WHERE i <= v_old_len) IS DISTINCT FROM OLD.remarks THEN
      RAISE EXCEPTION 'remarks are append-only' USING ERRCODE = '42501';
    END IF;
    IF jsonb_array_length(NEW.remarks) > 20 THEN
      RAISE EXCEPTION 'a ticket holds at most 20 remarks' USING ERRCODE = '42501';
    END IF;
    FOR v_entry IN SELECT e FROM jsonb_array_elements(NEW.remarks) WITH ORDINALITY AS r(e, i) WHERE i > v_old_len LOOP
      IF v_entry ->> 'vis' IS DISTINCT FROM 'ticket'
         OR v_entry ->> 'by' IS DISTINCT FROM OLD.submitter_label
         OR coalesce(v_entry ->> 'internal', 'false') <> 'false' THEN
        RAISE EXCEPTION 'a remark you add must be visible on the ticket and signed with your label' USING ERRCODE = '42501';
      END IF;
    END LOOP;
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "vs_tickets_guard" BEFORE UPDATE ON "public"."vs_tickets" FOR EACH ROW EXECUTE FUNCTION public.guard_vs_tickets();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.guard_pr_tickets()
RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
  IF public.is_trusted_write() OR public.can_handle_pr() OR public.current_user_is_admin() THEN
    RETURN NEW;
  END IF;
  IF OLD.submitter_id = auth.uid()
     AND public.changed_outside(to_jsonb(NEW), to_jsonb(OLD), ARRAY['brief', 'file_url', 'id_key']) THEN
    RAISE EXCEPTION 'submitters may only edit the brief and the file' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "pr_tickets_guard" BEFORE UPDATE ON "public"."pr_tickets" FOR EACH ROW EXECUTE FUNCTION public.guard_pr_tickets();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.guard_shop_orders()
RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
  IF public.is_trusted_write() OR public.can_handle_shop() THEN
    RETURN NEW;
  END IF;
  IF OLD.buyer_id = auth.uid() THEN
    IF OLD.status NOT IN ('pending', 'review', 'slip_mismatch') THEN
      RAISE EXCEPTION 'this order can no longer be changed' USING ERRCODE = '42501';
    END IF;
    IF public.changed_outside(to_jsonb(NEW), to_jsonb(OLD),
         ARRAY['slip_url', 'shipping_address', 'phone', 'status', 'updated_at']) THEN
      RAISE EXCEPTION 'buyers may only attach slips and fill in delivery details' USING ERRCODE = '42501';
    END IF;
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "shop_orders_guard" BEFORE UPDATE ON "public"."shop_orders" FOR EACH ROW EXECUTE FUNCTION public.guard_shop_orders();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION passport.guard_profiles()
RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
  IF public.is_trusted_write() OR public.current_user_is_admin() THEN
    RETURN NEW;
  END IF;
  IF OLD.user_id = auth.uid()
     AND public.changed_outside(to_jsonb(NEW), to_jsonb(OLD), ARRAY['display_name', 'faculty', 'updated_at']) THEN
    RAISE EXCEPTION 'only your display name and faculty may be changed' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "passport_profiles_guard" BEFORE UPDATE ON "passport"."profiles" FOR EACH ROW EXECUTE FUNCTION passport.guard_profiles();
--> statement-breakpoint

-- ---------------------------------------------------------------- guest lookups (rule 14)
CREATE OR REPLACE FUNCTION public.get_vs_ticket_by_id(p_id uuid)
RETURNS TABLE (
  id uuid, workspace_id uuid, submitter_label text, target_dept text, status public.vs_status,
  category_id uuid, is_public boolean, public_title text, body text, duplicate_of uuid,
  is_duplicate boolean, tags text[], remarks jsonb, created_at timestamptz, updated_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
  SELECT t.id, t.workspace_id, t.submitter_label, t.target_dept, t.status, t.category_id,
         t.is_public, t.public_title, t.body, NULL::uuid, t.is_duplicate, '{}'::text[],
         coalesce((SELECT jsonb_agg(e ORDER BY i)
                     FROM jsonb_array_elements(t.remarks) WITH ORDINALITY AS r(e, i)
                    WHERE coalesce(e ->> 'internal', 'false') = 'false'), '[]'::jsonb),
         t.created_at, t.updated_at
    FROM public.vs_tickets t
   WHERE t.id = p_id AND t.deleted_at IS NULL;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.get_pr_ticket_by_id(p_id text)
RETURNS SETOF public.pr_tickets
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
  SELECT * FROM public.pr_tickets t
   WHERE t.id ILIKE trim(p_id) AND t.deleted_at IS NULL;
$$;
--> statement-breakpoint

-- ---------------------------------------------------------------- soft delete (rule 7)
CREATE OR REPLACE FUNCTION public.soft_delete_pr_ticket(p_id text)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
  v_count integer;
BEGIN
  IF public.current_user_role() IS NULL OR NOT public.current_user_is_staff() THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  UPDATE public.pr_tickets t SET deleted_at = now()
   WHERE t.id = p_id AND t.deleted_at IS NULL
     AND t.workspace_id = public.current_workspace_id() AND public.can_handle_pr();
  GET DIAGNOSTICS v_count = ROW_COUNT;
  RETURN v_count > 0;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.soft_delete_vs_ticket(p_id uuid)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
  v_count integer;
BEGIN
  IF public.current_user_role() IS NULL OR NOT public.current_user_is_staff() THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  PERFORM set_config('app.trusted_write', 'on', true);
  UPDATE public.vs_tickets t SET deleted_at = now()
   WHERE t.id = p_id AND t.deleted_at IS NULL
     AND t.workspace_id = public.current_workspace_id() AND public.can_handle_vs(t.target_dept);
  GET DIAGNOSTICS v_count = ROW_COUNT;
  PERFORM set_config('app.trusted_write', '', true);
  RETURN v_count > 0;
END;
$$;
--> statement-breakpoint

-- ---------------------------------------------------------------- VS handling (rules 6, 9)
CREATE OR REPLACE FUNCTION public.find_similar_vs_tickets(p_id uuid)
RETURNS TABLE (id uuid, target_dept text, status public.vs_status, public_title text, created_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
  SELECT o.id, o.target_dept, o.status, o.public_title, o.created_at
    FROM public.vs_tickets t
    JOIN public.vs_tickets o
      ON o.workspace_id = t.workspace_id AND o.id <> t.id
     AND o.category_id IS NOT DISTINCT FROM t.category_id AND o.deleted_at IS NULL
   WHERE t.id = p_id AND t.deleted_at IS NULL
     AND t.workspace_id = public.current_workspace_id()
     AND public.can_handle_vs(t.target_dept) AND public.can_handle_vs(o.target_dept)
   ORDER BY o.created_at DESC
   LIMIT 20;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.merge_vs_tickets(p_primary uuid, p_duplicate uuid)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
  v_primary public.vs_tickets;
  v_duplicate public.vs_tickets;
BEGIN
  SELECT * INTO v_primary FROM public.vs_tickets t
   WHERE t.id = p_primary AND t.deleted_at IS NULL AND t.workspace_id = public.current_workspace_id();
  SELECT * INTO v_duplicate FROM public.vs_tickets t
   WHERE t.id = p_duplicate AND t.deleted_at IS NULL AND t.workspace_id = public.current_workspace_id();
  IF v_primary.id IS NULL OR v_duplicate.id IS NULL OR v_primary.id = v_duplicate.id
     OR NOT public.can_handle_vs(v_primary.target_dept)
     OR NOT public.can_handle_vs(v_duplicate.target_dept) THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  IF v_primary.target_dept IS DISTINCT FROM v_duplicate.target_dept THEN
    RAISE EXCEPTION 'tickets of different departments cannot be merged' USING ERRCODE = '42501';
  END IF;
  PERFORM set_config('app.trusted_write', 'on', true);
  UPDATE public.vs_tickets t
     SET duplicate_of = v_primary.id,
         status = 'closed',
         remarks = t.remarks
           || jsonb_build_array(
                jsonb_build_object('vis', 'staff', 'by', 'system', 'internal', true,
                                   'text', 'merged into ' || v_primary.id::text),
                jsonb_build_object('vis', 'ticket', 'by', 'system',
                                   'text', 'This report was closed because the same problem is already being handled.'))
   WHERE t.id = v_duplicate.id;
  PERFORM set_config('app.trusted_write', '', true);
  RETURN true;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.vs_transfer_dept(p_id uuid, p_dept text, p_remarks jsonb DEFAULT '[]'::jsonb)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
  v_ticket public.vs_tickets;
BEGIN
  IF p_dept IS NULL OR btrim(p_dept) = '' THEN
    RAISE EXCEPTION 'a destination department is required' USING ERRCODE = '22023';
  END IF;
  SELECT * INTO v_ticket FROM public.vs_tickets t WHERE t.id = p_id AND t.deleted_at IS NULL;
  IF v_ticket.id IS NULL OR NOT public.can_handle_vs(v_ticket.target_dept) THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  PERFORM set_config('app.trusted_write', 'on', true);
  UPDATE public.vs_tickets t
     SET target_dept = btrim(p_dept),
         remarks = t.remarks || coalesce(p_remarks, '[]'::jsonb)
   WHERE t.id = p_id;
  PERFORM set_config('app.trusted_write', '', true);
  RETURN true;
END;
$$;
--> statement-breakpoint

-- ---------------------------------------------------------------- public board (rules 12, 13)
CREATE OR REPLACE FUNCTION public.vs_ticket_is_on_board(p_id uuid)
RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
  SELECT coalesce((
    SELECT t.is_public AND t.deleted_at IS NULL AND nullif(btrim(t.public_title), '') IS NOT NULL
           AND c.id IS NOT NULL AND NOT c.is_confidential AND c.public_eligible
      FROM public.vs_tickets t
      LEFT JOIN public.vs_categories c ON c.id = t.category_id
     WHERE t.id = p_id), false);
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.vs_set_public(p_id uuid, p_public boolean, p_title text DEFAULT NULL)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
  v_ticket public.vs_tickets;
  v_category public.vs_categories;
BEGIN
  SELECT * INTO v_ticket FROM public.vs_tickets t
   WHERE t.id = p_id AND t.deleted_at IS NULL AND t.workspace_id = public.current_workspace_id();
  IF v_ticket.id IS NULL OR NOT public.can_handle_vs(v_ticket.target_dept) THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  IF coalesce(p_public, false) THEN
    SELECT * INTO v_category FROM public.vs_categories c WHERE c.id = v_ticket.category_id;
    IF v_category.id IS NULL OR v_category.is_confidential OR NOT v_category.public_eligible THEN
      RAISE EXCEPTION 'this category cannot be published' USING ERRCODE = '42501';
    END IF;
    IF nullif(btrim(coalesce(p_title, v_ticket.public_title)), '') IS NULL THEN
      RAISE EXCEPTION 'a public headline is required' USING ERRCODE = '22023';
    END IF;
  END IF;
  PERFORM set_config('app.trusted_write', 'on', true);
  UPDATE public.vs_tickets t
     SET is_public = coalesce(p_public, false),
         public_title = coalesce(nullif(btrim(p_title), ''), t.public_title)
   WHERE t.id = p_id;
  PERFORM set_config('app.trusted_write', '', true);
  RETURN true;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.vs_post_public_comment(p_id uuid, p_body text)
RETURNS uuid
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
  v_id uuid;
BEGIN
  IF auth.uid() IS NULL OR public.current_user_role() IS NULL THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  IF NOT public.vs_ticket_is_on_board(p_id) THEN
    RAISE EXCEPTION 'ticket not found' USING ERRCODE = 'P0002';
  END IF;
  IF nullif(btrim(p_body), '') IS NULL THEN
    RAISE EXCEPTION 'a comment cannot be empty' USING ERRCODE = '22023';
  END IF;
  INSERT INTO public.vs_public_comments (workspace_id, ticket_id, author_id, body)
  SELECT t.workspace_id, t.id, auth.uid(), btrim(p_body) FROM public.vs_tickets t WHERE t.id = p_id
  RETURNING id INTO v_id;
  RETURN v_id;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.get_public_vs_board()
RETURNS TABLE (id uuid, public_title text, status public.vs_status, category text, created_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
  SELECT t.id, t.public_title, t.status, c.name, t.created_at
    FROM public.vs_tickets t
    JOIN public.vs_categories c ON c.id = t.category_id
   WHERE public.vs_ticket_is_on_board(t.id)
   ORDER BY t.created_at DESC;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.get_public_vs_problem(p_id uuid)
RETURNS jsonb
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
  SELECT jsonb_build_object(
           'id', t.id, 'public_title', t.public_title, 'status', t.status, 'category', c.name,
           'is_duplicate', t.is_duplicate,
           'comments', coalesce((SELECT jsonb_agg(jsonb_build_object('body', m.body, 'created_at', m.created_at) ORDER BY m.created_at)
                                   FROM public.vs_public_comments m WHERE m.ticket_id = t.id), '[]'::jsonb))
    FROM public.vs_tickets t
    JOIN public.vs_categories c ON c.id = t.category_id
   WHERE t.id = p_id AND public.vs_ticket_is_on_board(t.id);
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.get_vs_linked_context(p_id uuid)
RETURNS jsonb
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
  v_ticket public.vs_tickets;
BEGIN
  SELECT * INTO v_ticket FROM public.vs_tickets t WHERE t.id = p_id AND t.deleted_at IS NULL;
  IF v_ticket.id IS NULL
     OR NOT (v_ticket.submitter_id = auth.uid()
             OR (v_ticket.workspace_id = public.current_workspace_id() AND public.can_handle_vs(v_ticket.target_dept))) THEN
    RETURN NULL;
  END IF;
  RETURN jsonb_build_object(
    'id', v_ticket.id, 'status', v_ticket.status, 'is_duplicate', v_ticket.is_duplicate,
    'on_board', public.vs_ticket_is_on_board(v_ticket.id),
    'public', CASE WHEN public.vs_ticket_is_on_board(v_ticket.id) THEN public.get_public_vs_problem(v_ticket.id) END);
END;
$$;
--> statement-breakpoint

-- ---------------------------------------------------------------- team tree (rules 11, 15)
CREATE OR REPLACE FUNCTION public.node_effective_is_public(p_node uuid)
RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
  WITH RECURSIVE up AS (
    SELECT n.id, n.parent_id, n.is_public FROM public.team_nodes n WHERE n.id = p_node
    UNION ALL
    SELECT p.id, p.parent_id, p.is_public FROM public.team_nodes p JOIN up ON p.id = up.parent_id
  )
  SELECT coalesce(bool_and(up.is_public), false) FROM up;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.effective_team_permissions_for_email(p_email text)
RETURNS text[]
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
  SELECT coalesce(array_agg(DISTINCT perm), '{}'::text[])
    FROM public.team_members m
    JOIN public.profiles p ON p.id = m.profile_id
    CROSS JOIN LATERAL unnest(m.permissions) AS perm
   WHERE lower(p.email) = lower(btrim(p_email)) OR lower(m.kkumail) = lower(btrim(p_email));
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.get_public_org_chart()
RETURNS jsonb
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
  WITH RECURSIVE visible AS (
    SELECT n.* FROM public.team_nodes n WHERE n.parent_id IS NULL AND n.is_public
    UNION ALL
    SELECT c.* FROM public.team_nodes c JOIN visible v ON c.parent_id = v.id WHERE c.is_public
  )
  SELECT jsonb_build_object(
    'nodes', coalesce((SELECT jsonb_agg(jsonb_build_object('id', v.id, 'parent_id', v.parent_id, 'name', v.name,
                                                             'kind', v.kind, 'position', v.position)
                                        ORDER BY v.position, v.name) FROM visible v), '[]'::jsonb),
    'members', coalesce((SELECT jsonb_agg(jsonb_build_object('node_id', m.node_id, 'name', m.name,
                                                               'nickname', m.nickname, 'position', m.position)
                                          ORDER BY m.node_id, m.name)
                           FROM public.team_members m JOIN visible v ON v.id = m.node_id), '[]'::jsonb));
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.sync_my_team_permissions()
RETURNS text[]
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
  v_perms text[];
BEGIN
  IF auth.uid() IS NULL THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  SELECT coalesce(array_agg(DISTINCT perm ORDER BY perm), '{}'::text[]) INTO v_perms
    FROM public.team_members m CROSS JOIN LATERAL unnest(m.permissions) AS perm
   WHERE m.profile_id = auth.uid();
  PERFORM set_config('app.trusted_write', 'on', true);
  UPDATE public.profiles p SET managed_permissions = v_perms WHERE p.id = auth.uid();
  PERFORM set_config('app.trusted_write', '', true);
  RETURN v_perms;
END;
$$;
--> statement-breakpoint

-- ---------------------------------------------------------------- students (rule 18)
CREATE OR REPLACE FUNCTION public.get_my_student_record()
RETURNS jsonb
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
  v_record public.student_records;
BEGIN
  IF auth.uid() IS NULL THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  SELECT * INTO v_record FROM public.student_records r WHERE r.profile_id = auth.uid();
  IF v_record.id IS NULL THEN
    RETURN NULL;
  END IF;
  RETURN jsonb_build_object(
    'record', jsonb_build_object('student_id', v_record.student_id, 'full_name', v_record.full_name,
                                 'major', v_record.major, 'year', v_record.year),
    'requests', coalesce((
      SELECT jsonb_agg(x.o ORDER BY x.created_at DESC)
        FROM (SELECT q.created_at,
                     jsonb_build_object('id', q.id, 'field', q.field, 'requested_value', q.requested_value,
                                        'verdict', q.verdict, 'admin_note', q.admin_note,
                                        'applied_value', q.applied_value, 'decided_at', q.decided_at) AS o
                FROM public.student_change_requests q
               WHERE q.record_id = v_record.id
               ORDER BY q.created_at DESC
               LIMIT 10) x), '[]'::jsonb));
END;
$$;
--> statement-breakpoint

-- ---------------------------------------------------------------- passport (rules 19, 20)
CREATE VIEW "passport"."user_tiers" WITH (security_invoker = true) AS
  SELECT p.user_id, p.workspace_id, p.points,
         CASE WHEN p.points >= 1000 THEN 'gold' WHEN p.points >= 300 THEN 'silver' ELSE 'bronze' END AS tier
    FROM passport.profiles p;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION passport.admin_leaderboard()
RETURNS TABLE (user_id uuid, display_name text, points integer, tier text)
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
  IF NOT public.current_user_is_admin() THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  RETURN QUERY
    SELECT p.user_id, p.display_name, p.points,
           CASE WHEN p.points >= 1000 THEN 'gold' WHEN p.points >= 300 THEN 'silver' ELSE 'bronze' END
      FROM passport.profiles p
     WHERE p.workspace_id = public.current_workspace_id()
     ORDER BY p.points DESC
     LIMIT 50;
END;
$$;
--> statement-breakpoint

-- ---------------------------------------------------------------- grants (rules 15, 16)
GRANT USAGE ON SCHEMA "passport" TO "anon", "authenticated", "service_role";
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "public"."workspaces", "public"."profiles", "public"."vs_categories",
  "public"."vs_tickets", "public"."vs_public_comments", "public"."pr_tickets", "public"."shop_orders",
  "public"."team_nodes", "public"."team_members", "public"."projects", "public"."project_documents",
  "public"."project_files", "public"."project_sign_requests", "public"."project_settings",
  "public"."student_records", "public"."student_change_requests", "public"."identity_conflicts"
  TO "authenticated", "service_role";
--> statement-breakpoint
GRANT SELECT ON "public"."projects", "public"."project_documents", "public"."project_files" TO "anon";
--> statement-breakpoint
GRANT SELECT, UPDATE ON "passport"."profiles" TO "authenticated";
--> statement-breakpoint
GRANT SELECT ON "passport"."user_tiers" TO "authenticated";
--> statement-breakpoint
GRANT ALL ON "passport"."profiles", "passport"."user_tiers" TO "service_role";
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION passport.admin_leaderboard() TO "anon", "authenticated";
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION public.effective_team_permissions_for_email(text) FROM PUBLIC, "anon", "authenticated";
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION public.node_effective_is_public(uuid) FROM PUBLIC;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION public.soft_delete_pr_ticket(text), public.soft_delete_vs_ticket(uuid),
  public.merge_vs_tickets(uuid, uuid), public.vs_transfer_dept(uuid, text, jsonb),
  public.vs_set_public(uuid, boolean, text), public.find_similar_vs_tickets(uuid)
  FROM PUBLIC, "anon";
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION public.touch_updated_at(), public.guard_profiles(), public.guard_vs_tickets(),
  public.guard_pr_tickets(), public.guard_shop_orders(), passport.guard_profiles()
  FROM PUBLIC, "anon", "authenticated";
