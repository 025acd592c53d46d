-- Custom SQL migration file, put your code below! --
-- Fixes for what policyfuzz found against the spec on the first runs.

-- Rule 14: a lookup by id is an equality (trimmed, case-insensitive), never a pattern.
DROP INDEX "public"."pr_tickets_workspace_key_uq";
--> statement-breakpoint
ALTER TABLE "public"."pr_tickets" DROP COLUMN "id_key";
--> statement-breakpoint
ALTER TABLE "public"."pr_tickets" ADD COLUMN "id_key" text GENERATED ALWAYS AS (lower(btrim("pr_tickets"."id"))) STORED;
--> statement-breakpoint
CREATE UNIQUE INDEX "pr_tickets_workspace_key_uq" ON "public"."pr_tickets" USING btree ("workspace_id","id_key");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.get_pr_ticket_by_id(p_id text)
RETURNS SETOF public.pr_tickets
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
  SELECT * FROM public.pr_tickets t
   WHERE t.id_key = lower(btrim(p_id)) AND t.deleted_at IS NULL;
$$;
--> statement-breakpoint

-- Rule 12: a ticket id in a remark the submitter sees is a duplicate cross-reference.
CREATE OR REPLACE FUNCTION public.remarks_reveal_ticket_ids(p_remarks jsonb, p_kept integer)
RETURNS boolean
LANGUAGE sql IMMUTABLE
SET search_path = ''
AS $$
  SELECT coalesce(bool_or(
           coalesce(e ->> 'internal', 'false') = 'false'
           AND (e ->> 'text') ~* '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'), false)
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(p_remarks) = 'array' THEN p_remarks ELSE '[]'::jsonb END)
         WITH ORDINALITY AS r(e, i)
   WHERE i > p_kept;
$$;
--> statement-breakpoint

-- Rule 3: remarks are append-only and capped for every writer, handlers included; only the
-- submitter's own entries must be visible and signed with their label.
CREATE OR REPLACE FUNCTION public.guard_vs_remarks()
RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
  v_old_len integer := jsonb_array_length(OLD.remarks);
BEGIN
  IF public.is_trusted_write() OR NEW.remarks IS NOT DISTINCT FROM OLD.remarks THEN
    RETURN NEW;
  END IF;
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
  IF public.remarks_reveal_ticket_ids(NEW.remarks, v_old_len) THEN
    RAISE EXCEPTION 'a remark naming another ticket must be internal' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "vs_tickets_guard_remarks" BEFORE UPDATE OF "remarks" ON "public"."vs_tickets" FOR EACH ROW EXECUTE FUNCTION public.guard_vs_remarks();
--> statement-breakpoint

-- Rule 13: the student's raw report is never the public headline.
CREATE OR REPLACE FUNCTION public.vs_set_public(p_id uuid, p_public boolean, p_title text DEFAULT NULL)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
  v_ticket public.vs_tickets;
  v_category public.vs_categories;
  v_title text;
BEGIN
  SELECT * INTO v_ticket FROM public.vs_tickets t
   WHERE t.id = p_id AND t.deleted_at IS NULL AND t.workspace_id = public.current_workspace_id();
  IF v_ticket.id IS NULL OR NOT public.can_handle_vs(v_ticket.target_dept) THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  v_title := coalesce(nullif(btrim(p_title), ''), v_ticket.public_title);
  IF coalesce(p_public, false) THEN
    SELECT * INTO v_category FROM public.vs_categories c WHERE c.id = v_ticket.category_id;
    IF v_category.id IS NULL OR v_category.is_confidential OR NOT v_category.public_eligible THEN
      RAISE EXCEPTION 'this category cannot be published' USING ERRCODE = '42501';
    END IF;
    IF nullif(btrim(v_title), '') IS NULL THEN
      RAISE EXCEPTION 'a public headline is required' USING ERRCODE = '22023';
    END IF;
    IF nullif(btrim(v_ticket.body), '') IS NOT NULL AND position(lower(btrim(v_ticket.body)) IN lower(v_title)) > 0 THEN
      RAISE EXCEPTION 'the headline may not repeat the report' USING ERRCODE = '22023';
    END IF;
  END IF;
  PERFORM set_config('app.trusted_write', 'on', true);
  UPDATE public.vs_tickets t SET is_public = coalesce(p_public, false), public_title = v_title WHERE t.id = p_id;
  PERFORM set_config('app.trusted_write', '', true);
  RETURN true;
END;
$$;
--> statement-breakpoint

-- Rule 8: an unknown caller is denied (submitter_id = NULL let anon through the NOT (…)).
CREATE OR REPLACE FUNCTION public.get_vs_linked_context(p_id uuid)
RETURNS jsonb
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
  v_ticket public.vs_tickets;
BEGIN
  SELECT * INTO v_ticket FROM public.vs_tickets t WHERE t.id = p_id AND t.deleted_at IS NULL;
  IF v_ticket.id IS NULL OR auth.uid() IS NULL
     OR NOT coalesce(v_ticket.submitter_id = auth.uid()
                     OR (v_ticket.workspace_id = public.current_workspace_id() AND public.can_handle_vs(v_ticket.target_dept)), false) THEN
    RETURN NULL;
  END IF;
  RETURN jsonb_build_object(
    'id', v_ticket.id, 'status', v_ticket.status, 'is_duplicate', v_ticket.is_duplicate,
    'on_board', public.vs_ticket_is_on_board(v_ticket.id),
    'public', CASE WHEN public.vs_ticket_is_on_board(v_ticket.id) THEN public.get_public_vs_problem(v_ticket.id) END);
END;
$$;
--> statement-breakpoint

-- Rules 6, 12: a transfer's remarks are appended like any other (no visible ticket id).
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
  IF public.remarks_reveal_ticket_ids(coalesce(p_remarks, '[]'::jsonb), 0) THEN
    RAISE EXCEPTION 'a remark naming another ticket must be internal' USING ERRCODE = '42501';
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

-- Rules 13, 14: the board shows no ticket id (an id is the capability to read the ticket).
DROP FUNCTION public.get_public_vs_board();
--> statement-breakpoint
CREATE FUNCTION public.get_public_vs_board()
RETURNS TABLE (public_title text, status public.vs_status, category text, created_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
  SELECT t.public_title, t.status, c.name, t.created_at
    FROM public.vs_tickets t
    JOIN public.vs_categories c ON c.id = t.category_id
   WHERE public.vs_ticket_is_on_board(t.id)
   ORDER BY t.created_at DESC;
$$;
--> statement-breakpoint

-- Rules 7, 8, 9: a caller with no role is refused, and so is staff that does not handle PR.
CREATE OR REPLACE FUNCTION public.soft_delete_pr_ticket(p_id text)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ''
AS $$
DECLARE
  v_count integer;
BEGIN
  IF public.current_user_role() IS NULL OR NOT public.current_user_is_staff() OR NOT public.can_handle_pr() THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  UPDATE public.pr_tickets t SET deleted_at = now()
   WHERE t.id = p_id AND t.deleted_at IS NULL AND t.workspace_id = public.current_workspace_id();
  GET DIAGNOSTICS v_count = ROW_COUNT;
  RETURN v_count > 0;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.find_similar_vs_tickets(p_id uuid)
RETURNS TABLE (id uuid, target_dept text, status public.vs_status, public_title text, created_at timestamptz)
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = ''
AS $$
BEGIN
  IF public.current_user_role() IS NULL THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  RETURN QUERY
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
END;
$$;
--> statement-breakpoint

-- Rule 11: the team tree is shown publicly only through get_public_org_chart; staff read the table.
DROP POLICY "team_nodes_read_workspace" ON "public"."team_nodes";
--> statement-breakpoint
CREATE POLICY "team_nodes_read_staff" ON "public"."team_nodes" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("team_nodes"."workspace_id" = (select current_workspace_id()) and (select current_user_is_staff()));
--> statement-breakpoint

-- Rule 4: a buyer never marks their own order paid.
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
    IF NEW.status = 'paid' THEN
      RAISE EXCEPTION 'buyers may not mark an order paid' USING ERRCODE = '42501';
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

-- Rule 15: private helpers and signed-in-only functions, each role named.
REVOKE EXECUTE ON FUNCTION public.node_effective_is_public(uuid), public.changed_outside(jsonb, jsonb, text[]),
  public.is_trusted_write(), public.vs_ticket_is_on_board(uuid), public.guard_vs_remarks(),
  public.remarks_reveal_ticket_ids(jsonb, integer)
  FROM PUBLIC, "anon", "authenticated";
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION public.get_my_student_record(), public.sync_my_team_permissions(),
  public.vs_post_public_comment(uuid, text)
  FROM PUBLIC, "anon";
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION public.get_my_student_record(), public.sync_my_team_permissions(),
  public.vs_post_public_comment(uuid, text) TO "authenticated";
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION public.get_public_vs_board() TO "anon", "authenticated";
