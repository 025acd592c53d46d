-- Hand-written: functions the browser calls through supabase.rpc().

-- Guest tracking: one VS ticket by its number, with the staff-only parts taken out.
CREATE OR REPLACE FUNCTION public.get_vs_ticket_by_id(p_id integer) RETURNS SETOF "VsTicket"
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT t."id", t."submitterId", t."targetDept", t."status", t."categoryId", t."title", t."body",
         t."isPublic", t."publicTitle", NULL::integer AS "duplicateOfId",
         coalesce((SELECT jsonb_agg(r) FROM jsonb_array_elements(t."remarks") r
                   WHERE NOT coalesce((r ->> 'internal')::boolean, false)), '[]'::jsonb) AS "remarks",
         t."deletedAt", t."createdAt", t."updatedAt", t."isDuplicate"
  FROM public."VsTicket" t
  WHERE t."id" = p_id AND t."deletedAt" IS NULL
$$;

CREATE OR REPLACE FUNCTION public.get_pr_ticket_by_id(p_id text) RETURNS SETOF "PrTicket"
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT t.* FROM public."PrTicket" t
  WHERE t."id" ILIKE trim(p_id) AND t."deletedAt" IS NULL
$$;

CREATE OR REPLACE FUNCTION public.soft_delete_vs_ticket(p_id integer) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = '' AS $$
DECLARE
  t public."VsTicket";
BEGIN
  IF public.current_user_role() IS NULL OR NOT public.current_user_is_staff() THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  SELECT * INTO t FROM public."VsTicket" WHERE "id" = p_id AND "deletedAt" IS NULL;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  IF NOT public.can_handle_vs(t."targetDept") THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  UPDATE public."VsTicket" SET "deletedAt" = now() WHERE "id" = p_id;
  RETURN true;
END;
$$;

CREATE OR REPLACE FUNCTION public.soft_delete_pr_ticket(p_id text) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = '' AS $$
BEGIN
  IF public.current_user_role() IS NULL OR NOT public.current_user_is_staff() OR NOT public.can_handle_pr() THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  UPDATE public."PrTicket" SET "deletedAt" = now() WHERE "id" = p_id AND "deletedAt" IS NULL;
  RETURN FOUND;
END;
$$;

CREATE OR REPLACE FUNCTION public.find_similar_vs_tickets(p_id integer) RETURNS SETOF "VsTicket"
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = '' AS $$
DECLARE
  src public."VsTicket";
BEGIN
  SELECT * INTO src FROM public."VsTicket" WHERE "id" = p_id AND "deletedAt" IS NULL;
  IF NOT FOUND OR NOT public.can_handle_vs(src."targetDept") THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  RETURN QUERY
    SELECT t.* FROM public."VsTicket" t
    WHERE t."id" <> src."id" AND t."deletedAt" IS NULL
      AND t."categoryId" IS NOT DISTINCT FROM src."categoryId"
      AND public.can_handle_vs(t."targetDept")
    ORDER BY t."createdAt" DESC
    LIMIT 20;
END;
$$;

CREATE OR REPLACE FUNCTION public.merge_vs_tickets(p_source_id integer, p_target_id integer) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = '' AS $$
DECLARE
  src public."VsTicket";
  dst public."VsTicket";
BEGIN
  SELECT * INTO src FROM public."VsTicket" WHERE "id" = p_source_id AND "deletedAt" IS NULL;
  SELECT * INTO dst FROM public."VsTicket" WHERE "id" = p_target_id AND "deletedAt" IS NULL;
  IF src."id" IS NULL OR dst."id" IS NULL OR src."id" = dst."id" THEN
    RAISE EXCEPTION 'Ticket not found' USING ERRCODE = 'P0002';
  END IF;
  IF NOT public.can_handle_vs(src."targetDept") OR NOT public.can_handle_vs(dst."targetDept") THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  IF public.current_user_role() = 'VP_ADMIN' AND src."targetDept" IS DISTINCT FROM dst."targetDept" THEN
    RAISE EXCEPTION 'Cannot merge tickets across departments' USING ERRCODE = '42501';
  END IF;
  UPDATE public."VsTicket"
     SET "duplicateOfId" = dst."id", "status" = 'CLOSED',
         "remarks" = "remarks"
           || jsonb_build_array(jsonb_build_object('vis', 'staff', 'by', 'system', 'internal', true,
                                                   'text', 'Merged into #' || dst."id"))
           || jsonb_build_array(jsonb_build_object('vis', 'ticket', 'by', 'system', 'internal', false,
                                                   'text', 'This report was closed as a duplicate of an existing report.'))
   WHERE "id" = src."id";
  RETURN true;
END;
$$;

CREATE OR REPLACE FUNCTION public.vs_transfer_dept(p_id integer, p_dept text, p_remarks jsonb) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = '' AS $$
DECLARE
  t public."VsTicket";
BEGIN
  IF p_dept IS NULL OR btrim(p_dept) = '' THEN
    RAISE EXCEPTION 'Destination department is required' USING ERRCODE = '22023';
  END IF;
  SELECT * INTO t FROM public."VsTicket" WHERE "id" = p_id AND "deletedAt" IS NULL;
  IF NOT FOUND OR NOT public.can_handle_vs(t."targetDept") THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  UPDATE public."VsTicket"
     SET "targetDept" = p_dept, "remarks" = "remarks" || coalesce(p_remarks, '[]'::jsonb)
   WHERE "id" = p_id;
  RETURN true;
END;
$$;

-- Public board. A ticket is shown when it is public and its category allows it.
CREATE OR REPLACE FUNCTION public.vs_set_public(p_id integer, p_public boolean, p_public_title text) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = '' AS $$
DECLARE
  t public."VsTicket";
  c public."VsCategory";
BEGIN
  SELECT * INTO t FROM public."VsTicket" WHERE "id" = p_id AND "deletedAt" IS NULL;
  IF NOT FOUND OR NOT public.can_handle_vs(t."targetDept") THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  IF p_public THEN
    SELECT * INTO c FROM public."VsCategory" WHERE "id" = t."categoryId";
    IF NOT FOUND OR c."isConfidential" OR NOT c."publicEligible" THEN
      RAISE EXCEPTION 'This category cannot be published' USING ERRCODE = '22023';
    END IF;
    IF p_public_title IS NULL OR btrim(p_public_title) = '' THEN
      RAISE EXCEPTION 'A public headline is required' USING ERRCODE = '22023';
    END IF;
  END IF;
  UPDATE public."VsTicket" SET "isPublic" = p_public, "publicTitle" = p_public_title WHERE "id" = p_id;
  RETURN true;
END;
$$;

CREATE OR REPLACE FUNCTION public.get_public_vs_board()
RETURNS TABLE ("id" integer, "publicTitle" text, "status" "VsStatus", "categoryName" text, "createdAt" timestamp(3))
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT t."id", t."publicTitle", t."status", c."name", t."createdAt"
  FROM public."VsTicket" t
  LEFT JOIN public."VsCategory" c ON c."id" = t."categoryId"
  WHERE t."isPublic" AND t."deletedAt" IS NULL AND t."publicTitle" IS NOT NULL
    AND NOT coalesce(c."isConfidential", false) AND coalesce(c."publicEligible", true)
  ORDER BY t."createdAt" DESC
$$;

CREATE OR REPLACE FUNCTION public.get_public_vs_problem(p_id integer) RETURNS jsonb
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT jsonb_build_object(
    'id', t."id", 'publicTitle', t."publicTitle", 'status', t."status", 'categoryName', c."name",
    'comments', coalesce((SELECT jsonb_agg(jsonb_build_object('body', pc."body", 'createdAt', pc."createdAt") ORDER BY pc."createdAt")
                          FROM public."VsPublicComment" pc WHERE pc."ticketId" = t."id"), '[]'::jsonb))
  FROM public."VsTicket" t
  JOIN public."VsCategory" c ON c."id" = t."categoryId"
  WHERE t."id" = p_id AND t."isPublic" AND t."deletedAt" IS NULL AND t."publicTitle" IS NOT NULL
    AND NOT c."isConfidential" AND c."publicEligible"
$$;

CREATE OR REPLACE FUNCTION public.vs_post_public_comment(p_id integer, p_body text) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = '' AS $$
DECLARE
  me text := public.current_app_user_id();
  new_id text;
BEGIN
  IF me IS NULL THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  IF NOT EXISTS (
    SELECT 1 FROM public."VsTicket" t JOIN public."VsCategory" c ON c."id" = t."categoryId"
    WHERE t."id" = p_id AND t."isPublic" AND t."deletedAt" IS NULL AND t."publicTitle" IS NOT NULL
      AND NOT c."isConfidential" AND c."publicEligible"
  ) THEN
    RAISE EXCEPTION 'Ticket not found' USING ERRCODE = 'P0002';
  END IF;
  INSERT INTO public."VsPublicComment" ("ticketId", "authorId", "body") VALUES (p_id, me, p_body)
  RETURNING "id" INTO new_id;
  RETURN jsonb_build_object('id', new_id);
END;
$$;

-- Submitter tracking page: the ticket's public context if it has one.
CREATE OR REPLACE FUNCTION public.get_vs_linked_context(p_id integer) RETURNS jsonb
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT jsonb_build_object('id', t."id", 'isDuplicate', t."isDuplicate", 'isPublic',
           t."isPublic" AND c."id" IS NOT NULL AND NOT c."isConfidential" AND c."publicEligible",
           'publicTitle', CASE WHEN t."isPublic" AND c."id" IS NOT NULL AND NOT c."isConfidential" AND c."publicEligible"
                               THEN t."publicTitle" END)
  FROM public."VsTicket" t
  LEFT JOIN public."VsCategory" c ON c."id" = t."categoryId"
  WHERE t."id" = p_id AND t."deletedAt" IS NULL
    AND (t."submitterId" = public.current_app_user_id() OR public.can_handle_vs(t."targetDept"))
$$;

-- Team tree
CREATE OR REPLACE FUNCTION public.node_effective_is_public(p_node_id text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  WITH RECURSIVE up AS (
    SELECT n."id", n."parentId", n."isPublic", 0 AS depth FROM public."TeamNode" n WHERE n."id" = p_node_id
    UNION ALL
    SELECT n."id", n."parentId", n."isPublic", up.depth + 1 FROM public."TeamNode" n JOIN up ON n."id" = up."parentId"
    WHERE up.depth < 64
  )
  SELECT coalesce(bool_and(up."isPublic"), false) FROM up
$$;

CREATE OR REPLACE FUNCTION public.get_public_org_chart() RETURNS jsonb
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT jsonb_build_object(
    'nodes', coalesce((SELECT jsonb_agg(jsonb_build_object('id', n."id", 'parent_id', n."parentId", 'name', n."name",
                                                           'kind', n."kind", 'position', n."position") ORDER BY n."position")
                       FROM public."TeamNode" n WHERE public.node_effective_is_public(n."id")), '[]'::jsonb),
    'members', coalesce((SELECT jsonb_agg(jsonb_build_object('node_id', l."B", 'name', m."name",
                                                             'nickname', m."nickname", 'position', m."position"))
                         FROM public."_TeamMemberToTeamNode" l JOIN public."TeamMember" m ON m."id" = l."A"
                         WHERE public.node_effective_is_public(l."B")), '[]'::jsonb))
$$;

CREATE OR REPLACE FUNCTION public.effective_team_permissions_for_email(p_email text) RETURNS text[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT coalesce(array_agg(DISTINCT p), '{}')
  FROM public."TeamMember" m, unnest(coalesce(m."permissions", '{}')) p
  WHERE lower(m."kkumail") = lower(btrim(p_email))
$$;

CREATE OR REPLACE FUNCTION public.sync_my_team_permissions() RETURNS text[]
LANGUAGE plpgsql SECURITY DEFINER SET search_path = '' AS $$
DECLARE
  me public."User";
  perms text[];
BEGIN
  SELECT * INTO me FROM public."User" WHERE "authId" = auth.uid();
  IF NOT FOUND THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  perms := public.effective_team_permissions_for_email(me."email");
  UPDATE public."User" SET "managedPermissions" = perms WHERE "id" = me."id";
  RETURN perms;
END;
$$;

-- Student records
CREATE OR REPLACE FUNCTION public.get_my_student_record() RETURNS jsonb
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT jsonb_build_object(
    'record', to_jsonb(r),
    'requests', coalesce((
      SELECT jsonb_agg(x ORDER BY x."createdAt" DESC) FROM (
        SELECT q."id", q."field", q."requestedValue", q."status", q."verdict", q."note", q."appliedValue", q."createdAt"
        FROM public."StudentChangeRequest" q WHERE q."recordId" = r."id"
        ORDER BY q."createdAt" DESC LIMIT 10) x), '[]'::jsonb))
  FROM public."StudentRecord" r
  WHERE r."userId" = public.current_app_user_id()
$$;

-- Passport
CREATE OR REPLACE FUNCTION passport.admin_leaderboard()
RETURNS TABLE ("profileId" text, "displayName" text, "points" integer)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = '' AS $$
BEGIN
  IF NOT public.current_user_is_admin() THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  RETURN QUERY SELECT p."id", p."displayName", p."points" FROM passport."Profile" p ORDER BY p."points" DESC LIMIT 100;
END;
$$;

------------------------------------------------------------------------------------------------
-- Function privileges
------------------------------------------------------------------------------------------------

REVOKE EXECUTE ON FUNCTION public.effective_team_permissions_for_email(text) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION public.node_effective_is_public(text) FROM PUBLIC, anon, authenticated;
REVOKE EXECUTE ON FUNCTION public.set_updated_at() FROM PUBLIC, anon, authenticated;
REVOKE EXECUTE ON FUNCTION public.guard_user_update() FROM PUBLIC, anon, authenticated;
REVOKE EXECUTE ON FUNCTION public.guard_vs_ticket_update() FROM PUBLIC, anon, authenticated;
REVOKE EXECUTE ON FUNCTION public.guard_shop_order_update() FROM PUBLIC, anon, authenticated;

REVOKE EXECUTE ON FUNCTION public.soft_delete_vs_ticket(integer) FROM PUBLIC, anon;
REVOKE EXECUTE ON FUNCTION public.soft_delete_pr_ticket(text) FROM PUBLIC, anon;
REVOKE EXECUTE ON FUNCTION public.merge_vs_tickets(integer, integer) FROM PUBLIC, anon;
REVOKE EXECUTE ON FUNCTION public.vs_transfer_dept(integer, text, jsonb) FROM PUBLIC, anon;
REVOKE EXECUTE ON FUNCTION public.vs_set_public(integer, boolean, text) FROM PUBLIC, anon;
REVOKE EXECUTE ON FUNCTION public.sync_my_team_permissions() FROM PUBLIC, anon;
REVOKE EXECUTE ON FUNCTION public.get_my_student_record() FROM PUBLIC, anon;

GRANT USAGE ON SCHEMA passport TO anon, authenticated;
GRANT EXECUTE ON FUNCTION passport.admin_leaderboard() TO anon, authenticated;
