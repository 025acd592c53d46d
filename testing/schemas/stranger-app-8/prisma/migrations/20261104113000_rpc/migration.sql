-- Hand-written: rpc endpoints called by the web client through supabase-js.

-- ---------------------------------------------------------------- guest lookups
CREATE OR REPLACE FUNCTION public.get_vs_ticket_by_id(p_id text) RETURNS json
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
DECLARE v json;
BEGIN
  SELECT json_build_object(
      'id', t."id", 'status', t."status", 'targetDept', t."targetDept",
      'categoryId', t."categoryId", 'title', t."title", 'body', t."body",
      'isPublic', t."isPublic", 'publicTitle', t."publicTitle",
      'duplicateOfId', NULL, 'isDuplicate', t."isDuplicate", 'tags', '[]'::json,
      'remarks', coalesce((SELECT json_agg(r ORDER BY i) FROM jsonb_array_elements(t."remarks") WITH ORDINALITY AS x(r, i)
                           WHERE NOT coalesce((r ->> 'internal')::boolean, false)), '[]'::json),
      'createdAt', t."createdAt", 'updatedAt', t."updatedAt")
    INTO v
  FROM "VsTicket" t WHERE t."id" = p_id AND t."deletedAt" IS NULL;
  RETURN v;
END $$;

CREATE OR REPLACE FUNCTION public.get_pr_ticket_by_id(p_id text) RETURNS json
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
DECLARE v json;
BEGIN
  SELECT json_build_object('id', t."id", 'status', t."status", 'submitterLabel', t."submitterLabel",
                           'brief', t."brief", 'fileUrl', t."fileUrl", 'createdAt', t."createdAt")
    INTO v
  FROM "PrTicket" t
  WHERE lower(t."id") = lower(btrim(p_id)) AND t."deletedAt" IS NULL;
  RETURN v;
END $$;

-- ---------------------------------------------------------------- soft delete
CREATE OR REPLACE FUNCTION public.soft_delete_vs_ticket(p_id text) RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE v "VsTicket";
BEGIN
  IF public.current_user_role() IS NULL OR NOT public.current_user_is_staff() THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  SELECT * INTO v FROM "VsTicket" WHERE "id" = p_id AND "deletedAt" IS NULL FOR UPDATE;
  IF NOT FOUND OR NOT public.current_user_can_handle_vs(v."targetDept") THEN
    RAISE EXCEPTION 'NOT_FOUND' USING ERRCODE = 'P0002';
  END IF;
  PERFORM set_config('app.soft_delete', 'on', true);
  UPDATE "VsTicket" SET "deletedAt" = now() WHERE "id" = v."id";
  PERFORM set_config('app.soft_delete', 'off', true);
  RETURN json_build_object('id', v."id", 'deleted', true);
END $$;

CREATE OR REPLACE FUNCTION public.soft_delete_pr_ticket(p_id text) RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE v "PrTicket";
BEGIN
  IF public.current_user_role() IS NULL OR NOT public.current_user_is_staff() THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  SELECT * INTO v FROM "PrTicket" WHERE "id" = p_id AND "deletedAt" IS NULL FOR UPDATE;
  IF NOT FOUND OR NOT public.current_user_can_handle_pr() THEN
    RAISE EXCEPTION 'NOT_FOUND' USING ERRCODE = 'P0002';
  END IF;
  PERFORM set_config('app.soft_delete', 'on', true);
  UPDATE "PrTicket" SET "deletedAt" = now() WHERE "id" = v."id";
  PERFORM set_config('app.soft_delete', 'off', true);
  RETURN json_build_object('id', v."id", 'deleted', true);
END $$;

-- ---------------------------------------------------------------- VS handling
CREATE OR REPLACE FUNCTION public.find_similar_vs_tickets(p_id text) RETURNS json
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
DECLARE v "VsTicket";
BEGIN
  SELECT * INTO v FROM "VsTicket" WHERE "id" = p_id AND "deletedAt" IS NULL;
  IF NOT FOUND OR NOT public.current_user_can_handle_vs(v."targetDept") THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  RETURN coalesce((
    SELECT json_agg(json_build_object('id', t."id", 'title', t."title", 'status', t."status",
                                      'targetDept', t."targetDept") ORDER BY t."createdAt" DESC)
    FROM "VsTicket" t
    WHERE t."id" <> v."id" AND t."deletedAt" IS NULL
      AND t."categoryId" IS NOT DISTINCT FROM v."categoryId"
      AND public.current_user_can_handle_vs(t."targetDept")), '[]'::json);
END $$;

CREATE OR REPLACE FUNCTION public.merge_vs_tickets(p_source_id text, p_target_id text) RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE s "VsTicket"; t "VsTicket";
BEGIN
  SELECT * INTO s FROM "VsTicket" WHERE "id" = p_source_id AND "deletedAt" IS NULL FOR UPDATE;
  SELECT * INTO t FROM "VsTicket" WHERE "id" = p_target_id AND "deletedAt" IS NULL FOR UPDATE;
  IF s."id" IS NULL OR t."id" IS NULL
     OR NOT public.current_user_can_handle_vs(s."targetDept")
     OR NOT public.current_user_can_handle_vs(t."targetDept") THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  IF s."id" = t."id" THEN RAISE EXCEPTION 'Cannot merge a ticket into itself'; END IF;
  IF s."targetDept" IS DISTINCT FROM t."targetDept" THEN
    RAISE EXCEPTION 'Cannot merge tickets of different departments';
  END IF;
  UPDATE "VsTicket" SET
    "duplicateOfId" = t."id", "status" = 'closed', "version" = "version" + 1,
    "remarks" = "remarks"
      || jsonb_build_array(
           jsonb_build_object('vis', 'staff', 'by', 'system', 'internal', true,
                              'text', 'Merged into ' || t."id", 'at', now()),
           jsonb_build_object('vis', 'ticket', 'by', 'system', 'internal', false,
                              'text', 'This report was closed as a duplicate of an existing report.', 'at', now()))
  WHERE "id" = s."id";
  RETURN json_build_object('merged', s."id", 'into', t."id");
END $$;

CREATE OR REPLACE FUNCTION public.vs_transfer_dept(p_id text, p_dept text, p_remarks jsonb DEFAULT '[]'::jsonb)
RETURNS json LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE v "VsTicket";
BEGIN
  IF p_dept IS NULL OR btrim(p_dept) = '' THEN
    RAISE EXCEPTION 'Destination department is required';
  END IF;
  SELECT * INTO v FROM "VsTicket" WHERE "id" = p_id AND "deletedAt" IS NULL FOR UPDATE;
  IF NOT FOUND OR NOT public.current_user_can_handle_vs(v."targetDept") THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  IF jsonb_typeof(coalesce(p_remarks, '[]'::jsonb)) <> 'array' THEN
    RAISE EXCEPTION 'p_remarks must be an array';
  END IF;
  UPDATE "VsTicket" SET "targetDept" = btrim(p_dept), "version" = "version" + 1,
    "remarks" = "remarks" || coalesce(p_remarks, '[]'::jsonb)
  WHERE "id" = v."id";
  RETURN json_build_object('id', v."id", 'targetDept', btrim(p_dept));
END $$;

CREATE OR REPLACE FUNCTION public.vs_set_public(p_id text, p_public boolean, p_public_title text DEFAULT NULL)
RETURNS json LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE v "VsTicket"; c "VsCategory";
BEGIN
  SELECT * INTO v FROM "VsTicket" WHERE "id" = p_id AND "deletedAt" IS NULL FOR UPDATE;
  IF NOT FOUND OR NOT public.current_user_can_handle_vs(v."targetDept") THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  IF coalesce(p_public, false) THEN
    SELECT * INTO c FROM "VsCategory" WHERE "id" = v."categoryId";
    IF c."id" IS NULL OR c."isConfidential" OR NOT c."publicEligible" THEN
      RAISE EXCEPTION 'This category cannot be published';
    END IF;
    IF nullif(btrim(coalesce(p_public_title, v."publicTitle")), '') IS NULL THEN
      RAISE EXCEPTION 'A public headline is required';
    END IF;
  END IF;
  UPDATE "VsTicket" SET "isPublic" = coalesce(p_public, false),
    "publicTitle" = coalesce(nullif(btrim(p_public_title), ''), "publicTitle"),
    "version" = "version" + 1
  WHERE "id" = v."id";
  RETURN json_build_object('id', v."id", 'isPublic', coalesce(p_public, false));
END $$;

CREATE OR REPLACE FUNCTION public.get_public_vs_board() RETURNS json
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT coalesce(json_agg(json_build_object(
           'id', t."id", 'publicTitle', t."publicTitle", 'status', t."status",
           'category', c."name", 'createdAt', t."createdAt") ORDER BY t."createdAt" DESC), '[]'::json)
  FROM "VsTicket" t JOIN "VsCategory" c ON c."id" = t."categoryId"
  WHERE public.vs_ticket_on_board(t."id")
$$;

CREATE OR REPLACE FUNCTION public.get_public_vs_problem(p_id text) RETURNS json
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT json_build_object(
           'id', t."id", 'publicTitle', t."publicTitle", 'status', t."status",
           'category', c."name", 'createdAt', t."createdAt",
           'comments', coalesce((SELECT json_agg(json_build_object('id', m."id", 'body', m."body", 'createdAt', m."createdAt")
                                                 ORDER BY m."createdAt")
                                 FROM "VsPublicComment" m WHERE m."ticketId" = t."id"), '[]'::json))
  FROM "VsTicket" t JOIN "VsCategory" c ON c."id" = t."categoryId"
  WHERE t."id" = p_id AND public.vs_ticket_on_board(t."id")
$$;

CREATE OR REPLACE FUNCTION public.vs_post_public_comment(p_id text, p_body text) RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE v_id text := 'c' || replace(gen_random_uuid()::text, '-', '');
BEGIN
  IF public.request_user_id() IS NULL OR public.current_user_role() IS NULL THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  IF NOT public.vs_ticket_on_board(p_id) THEN
    RAISE EXCEPTION 'NOT_FOUND' USING ERRCODE = 'P0002';
  END IF;
  IF nullif(btrim(p_body), '') IS NULL THEN RAISE EXCEPTION 'Comment is empty'; END IF;
  INSERT INTO "VsPublicComment" ("id", "ticketId", "authorId", "body")
  VALUES (v_id, p_id, public.request_user_id(), btrim(p_body));
  RETURN json_build_object('id', v_id);
END $$;

-- What the submitter's tracking page shows next to a ticket: never another ticket's id.
CREATE OR REPLACE FUNCTION public.get_vs_linked_context(p_id text) RETURNS json
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
DECLARE v "VsTicket";
BEGIN
  SELECT * INTO v FROM "VsTicket" WHERE "id" = p_id AND "deletedAt" IS NULL;
  IF NOT FOUND THEN RETURN NULL; END IF;
  IF public.current_user_can_handle_vs(v."targetDept") THEN
    RETURN json_build_object('id', v."id", 'isDuplicate', v."isDuplicate", 'duplicateOfId', v."duplicateOfId",
                             'onBoard', public.vs_ticket_on_board(v."id"));
  END IF;
  RETURN json_build_object('id', v."id", 'isDuplicate', v."isDuplicate",
                           'onBoard', public.vs_ticket_on_board(v."id"),
                           'publicTitle', CASE WHEN public.vs_ticket_on_board(v."id") THEN v."publicTitle" END);
END $$;

-- ---------------------------------------------------------------- org chart
CREATE OR REPLACE FUNCTION public.get_public_org_chart() RETURNS json
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  WITH RECURSIVE visible AS (
    SELECT n."id" FROM "TeamNode" n WHERE n."parentId" IS NULL AND n."isPublic"
    UNION
    SELECT c."id" FROM "TeamNode" c JOIN visible p ON c."parentId" = p."id" WHERE c."isPublic"
  )
  SELECT json_build_object(
    'nodes', coalesce((SELECT json_agg(json_build_object('id', n."id", 'parent_id', n."parentId", 'name', n."name",
                                                         'kind', n."kind", 'position', n."position")
                                       ORDER BY n."position", n."id")
                       FROM "TeamNode" n WHERE n."id" IN (SELECT "id" FROM visible)), '[]'::json),
    'members', coalesce((SELECT json_agg(json_build_object('node_id', m."nodeId", 'name', m."name",
                                                           'nickname', m."nickname", 'position', m."position")
                                         ORDER BY m."nodeId", m."name")
                         FROM "TeamMember" m WHERE m."nodeId" IN (SELECT "id" FROM visible)), '[]'::json))
$$;

CREATE OR REPLACE FUNCTION public.sync_my_team_permissions() RETURNS json
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE v_uid text := public.request_user_id(); v_email text; v_perms text[];
BEGIN
  IF v_uid IS NULL THEN RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501'; END IF;
  SELECT "email" INTO v_email FROM "User" WHERE "id" = v_uid;
  IF v_email IS NULL THEN RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501'; END IF;
  v_perms := public.effective_team_permissions_for_email(v_email);
  UPDATE "User" SET "managedPermissions" = v_perms::"Permission"[] WHERE "id" = v_uid;
  RETURN json_build_object('permissions', v_perms);
END $$;

-- ---------------------------------------------------------------- students
CREATE OR REPLACE FUNCTION public.get_my_student_record() RETURNS json
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
DECLARE r "StudentRecord";
BEGIN
  IF public.request_user_id() IS NULL THEN RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501'; END IF;
  SELECT * INTO r FROM "StudentRecord" WHERE "userId" = public.request_user_id();
  IF NOT FOUND THEN RETURN NULL; END IF;
  RETURN json_build_object(
    'record', json_build_object('id', r."id", 'studentId', r."studentId", 'fullName', r."fullName",
                                'major', r."major", 'year', r."year"),
    'requests', coalesce((
      SELECT json_agg(x ORDER BY x."createdAt" DESC) FROM (
        SELECT q."id", q."field", q."requestedValue", q."status", q."verdict", q."adminNote",
               q."appliedValue", q."decidedAt", q."createdAt"
        FROM "StudentChangeRequest" q WHERE q."recordId" = r."id"
        ORDER BY q."createdAt" DESC, q."id" DESC LIMIT 10) x), '[]'::json));
END $$;

-- ---------------------------------------------------------------- passport
CREATE OR REPLACE FUNCTION passport.admin_leaderboard() RETURNS json
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF public.request_user_id() IS NULL OR NOT public.current_user_is_admin() THEN
    RAISE EXCEPTION 'NOT_AUTHORIZED' USING ERRCODE = '42501';
  END IF;
  RETURN coalesce((
    SELECT json_agg(json_build_object('profileId', p."id", 'displayName', p."displayName", 'points', s.pts)
                    ORDER BY s.pts DESC, p."id")
    FROM passport.profiles p
    JOIN (SELECT a."profileId", sum(a."points")::int AS pts FROM passport.activities a GROUP BY a."profileId") s
      ON s."profileId" = p."id"), '[]'::json);
END $$;

-- ---------------------------------------------------------------- grants
-- Supabase grants execute on everything in public to anon/authenticated; narrow it.
REVOKE ALL ON FUNCTION public.soft_delete_vs_ticket(text), public.soft_delete_pr_ticket(text),
  public.find_similar_vs_tickets(text), public.merge_vs_tickets(text, text),
  public.vs_transfer_dept(text, text, jsonb), public.vs_set_public(text, boolean, text),
  public.vs_post_public_comment(text, text), public.sync_my_team_permissions(),
  public.get_my_student_record(), public.get_vs_linked_context(text)
  FROM PUBLIC, anon;
GRANT EXECUTE ON FUNCTION public.soft_delete_vs_ticket(text), public.soft_delete_pr_ticket(text),
  public.find_similar_vs_tickets(text), public.merge_vs_tickets(text, text),
  public.vs_transfer_dept(text, text, jsonb), public.vs_set_public(text, boolean, text),
  public.vs_post_public_comment(text, text), public.sync_my_team_permissions(),
  public.get_my_student_record(), public.get_vs_linked_context(text)
  TO authenticated;
GRANT EXECUTE ON FUNCTION public.get_vs_ticket_by_id(text), public.get_pr_ticket_by_id(text),
  public.get_public_vs_board(), public.get_public_vs_problem(text), public.get_public_org_chart()
  TO anon, authenticated;
REVOKE ALL ON FUNCTION passport.admin_leaderboard(), passport.my_profile_id() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION passport.admin_leaderboard() TO anon, authenticated;
GRANT EXECUTE ON FUNCTION passport.my_profile_id() TO authenticated;
