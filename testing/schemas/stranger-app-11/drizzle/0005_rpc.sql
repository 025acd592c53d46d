-- Custom migration: the rpc surface. Every function is SECURITY DEFINER with an empty
-- search_path and re-applies the scope of the tables it reads (rule 9). Guards raise
-- NOT_AUTHORIZED (42501) and fail closed on a null role.

CREATE OR REPLACE FUNCTION public.require_role() RETURNS text
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = ''
AS $$
DECLARE
  r text := public.current_user_role();
BEGIN
  IF r IS NULL THEN
    RAISE EXCEPTION USING errcode = '42501', message = 'NOT_AUTHORIZED', hint = 'sign in first';
  END IF;
  RETURN r;
END
$$;
--> statement-breakpoint
-- Guest/submitter lookup by id (a capability, rule 14): exact id only, sanitized row.
CREATE OR REPLACE FUNCTION public.get_vs_ticket_by_id(p_id text) RETURNS SETOF public.vs_tickets
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT t.id, t.legacy_no, t.submitter_id, t.target_dept, t.status, t.category_id, t.title, t.body,
         t.is_public, t.public_title,
         NULL::text AS duplicate_of,
         t.is_duplicate,
         '{}'::text[] AS tags,
         coalesce((SELECT jsonb_agg(r ORDER BY ord)
                     FROM jsonb_array_elements(t.remarks) WITH ORDINALITY AS e(r, ord)
                    WHERE NOT coalesce((r ->> 'internal')::boolean, false)
                      AND coalesce(r ->> 'vis', '') IN ('ticket', 'public')), '[]'::jsonb) AS remarks,
         t.deleted_at, t.created_at, t.updated_at
    FROM public.vs_tickets t
   WHERE t.id = p_id
     AND t.deleted_at IS NULL
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.get_pr_ticket_by_id(p_id text)
RETURNS TABLE (id text, status public.pr_status, submitter_label varchar, brief text, file_url text,
               created_at timestamp(3), updated_at timestamp(3))
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT t.id, t.status, t.submitter_label, t.brief, t.file_url, t.created_at, t.updated_at
    FROM public.pr_tickets t
   WHERE upper(t.id) = upper(btrim(p_id, E' \t\r\n'))
     AND t.deleted_at IS NULL
$$;
--> statement-breakpoint
-- Soft delete (rule 7): the same predicates as the DELETE policies.
CREATE OR REPLACE FUNCTION public.soft_delete_vs_ticket(p_id text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ''
AS $$
DECLARE
  t public.vs_tickets;
BEGIN
  PERFORM public.require_role();
  SELECT * INTO t FROM public.vs_tickets WHERE id = p_id AND deleted_at IS NULL FOR UPDATE;
  IF NOT FOUND OR NOT (public.current_user_is_staff() AND public.can_handle_vs(t.target_dept)) THEN
    RAISE EXCEPTION USING errcode = '42501', message = 'NOT_AUTHORIZED';
  END IF;
  UPDATE public.vs_tickets SET deleted_at = now() WHERE id = t.id;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.soft_delete_pr_ticket(p_id text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ''
AS $$
BEGIN
  PERFORM public.require_role();
  IF NOT (public.current_user_is_staff() AND public.can_handle_pr()) THEN
    RAISE EXCEPTION USING errcode = '42501', message = 'NOT_AUTHORIZED';
  END IF;
  UPDATE public.pr_tickets SET deleted_at = now() WHERE id = p_id AND deleted_at IS NULL;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING errcode = 'P0002', message = 'NOT_FOUND';
  END IF;
END
$$;
--> statement-breakpoint
-- A submitter's remark on their own ticket (they do not write the table directly).
CREATE OR REPLACE FUNCTION public.vs_add_remark(p_id text, p_text text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ''
AS $$
DECLARE
  t public.vs_tickets;
BEGIN
  PERFORM public.require_role();
  SELECT * INTO t FROM public.vs_tickets WHERE id = p_id AND deleted_at IS NULL FOR UPDATE;
  IF NOT FOUND OR t.submitter_id IS DISTINCT FROM public.current_app_user_id() THEN
    RAISE EXCEPTION USING errcode = '42501', message = 'NOT_AUTHORIZED';
  END IF;
  IF nullif(btrim(p_text), '') IS NULL THEN
    RAISE EXCEPTION USING errcode = 'P0001', message = 'a remark needs text';
  END IF;
  IF jsonb_array_length(t.remarks) >= 50 THEN
    RAISE EXCEPTION USING errcode = 'P0001', message = 'a ticket holds at most 50 remarks';
  END IF;
  UPDATE public.vs_tickets
     SET remarks = remarks || jsonb_build_array(jsonb_build_object(
           'vis', 'ticket', 'by', 'submitter', 'internal', false, 'text', p_text, 'at', now()))
   WHERE id = t.id;
END
$$;
--> statement-breakpoint
-- Handlers' tools. vp_admin sees only their department (can_handle_vs does it).
CREATE OR REPLACE FUNCTION public.find_similar_vs_tickets(p_id text)
RETURNS TABLE (id text, title varchar, target_dept varchar, status public.vs_status, category_id integer, created_at timestamp(3))
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = ''
AS $$
DECLARE
  t public.vs_tickets;
BEGIN
  PERFORM public.require_role();
  SELECT * INTO t FROM public.vs_tickets v WHERE v.id = p_id AND v.deleted_at IS NULL;
  IF NOT FOUND OR NOT public.can_handle_vs(t.target_dept) THEN
    RAISE EXCEPTION USING errcode = '42501', message = 'NOT_AUTHORIZED';
  END IF;
  RETURN QUERY
    SELECT v.id, v.title, v.target_dept, v.status, v.category_id, v.created_at
      FROM public.vs_tickets v
     WHERE v.id <> t.id
       AND v.deleted_at IS NULL
       AND v.duplicate_of IS NULL
       AND public.can_handle_vs(v.target_dept)
       AND (v.category_id IS NOT DISTINCT FROM t.category_id OR lower(v.title) = lower(t.title))
     ORDER BY v.created_at DESC
     LIMIT 20;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.merge_vs_tickets(p_primary_id text, p_duplicate_id text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ''
AS $$
DECLARE
  prim public.vs_tickets;
  dup public.vs_tickets;
BEGIN
  PERFORM public.require_role();
  SELECT * INTO prim FROM public.vs_tickets WHERE id = p_primary_id AND deleted_at IS NULL;
  SELECT * INTO dup FROM public.vs_tickets WHERE id = p_duplicate_id AND deleted_at IS NULL FOR UPDATE;
  IF prim.id IS NULL OR dup.id IS NULL
     OR NOT public.can_handle_vs(prim.target_dept) OR NOT public.can_handle_vs(dup.target_dept) THEN
    RAISE EXCEPTION USING errcode = '42501', message = 'NOT_AUTHORIZED';
  END IF;
  IF prim.target_dept IS DISTINCT FROM dup.target_dept THEN
    RAISE EXCEPTION USING errcode = 'P0001', message = 'cannot merge tickets of different departments',
      hint = 'transfer one first (vs_transfer_dept)';
  END IF;
  IF prim.id = dup.id OR prim.duplicate_of IS NOT NULL THEN
    RAISE EXCEPTION USING errcode = 'P0001', message = 'the primary ticket must not itself be a duplicate';
  END IF;
  UPDATE public.vs_tickets
     SET duplicate_of = prim.id,
         status = 'closed',
         remarks = remarks || jsonb_build_array(
           jsonb_build_object('vis', 'staff', 'by', 'system', 'internal', true,
                              'text', format('merged into %s', prim.id), 'at', now()),
           jsonb_build_object('vis', 'ticket', 'by', 'system', 'internal', false,
                              'text', 'This report was merged with an existing one and closed.', 'at', now()))
   WHERE id = dup.id;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.vs_transfer_dept(p_id text, p_dept text, p_remarks jsonb DEFAULT '[]'::jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ''
AS $$
DECLARE
  t public.vs_tickets;
BEGIN
  PERFORM public.require_role();
  IF nullif(btrim(p_dept), '') IS NULL THEN
    RAISE EXCEPTION USING errcode = 'P0001', message = 'a destination department is required';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM public.departments d WHERE d.code = p_dept) THEN
    RAISE EXCEPTION USING errcode = 'P0001', message = format('unknown department %s', p_dept);
  END IF;
  IF p_remarks IS NULL OR jsonb_typeof(p_remarks) <> 'array' THEN
    RAISE EXCEPTION USING errcode = 'P0001', message = 'p_remarks must be a json array';
  END IF;
  SELECT * INTO t FROM public.vs_tickets WHERE id = p_id AND deleted_at IS NULL FOR UPDATE;
  IF NOT FOUND OR NOT public.can_handle_vs(t.target_dept) THEN
    RAISE EXCEPTION USING errcode = '42501', message = 'NOT_AUTHORIZED';
  END IF;
  IF jsonb_array_length(t.remarks) + jsonb_array_length(p_remarks) > 50 THEN
    RAISE EXCEPTION USING errcode = 'P0001', message = 'a ticket holds at most 50 remarks';
  END IF;
  UPDATE public.vs_tickets SET target_dept = p_dept, remarks = remarks || p_remarks WHERE id = t.id;
END
$$;
--> statement-breakpoint
-- Public board (rule 13): everything goes through public_vs_board's predicate.
CREATE OR REPLACE FUNCTION public.vs_set_public(p_id text, p_public boolean, p_public_title text DEFAULT NULL) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ''
AS $$
DECLARE
  t public.vs_tickets;
BEGIN
  PERFORM public.require_role();
  SELECT * INTO t FROM public.vs_tickets WHERE id = p_id AND deleted_at IS NULL FOR UPDATE;
  IF NOT FOUND OR NOT public.can_handle_vs(t.target_dept) THEN
    RAISE EXCEPTION USING errcode = '42501', message = 'NOT_AUTHORIZED';
  END IF;
  IF coalesce(p_public, false) THEN
    IF NOT public.vs_category_is_publishable(t.category_id) THEN
      RAISE EXCEPTION USING errcode = 'P0001', message = 'this category cannot be published';
    END IF;
    IF nullif(btrim(coalesce(p_public_title, t.public_title)), '') IS NULL THEN
      RAISE EXCEPTION USING errcode = 'P0001', message = 'a public headline is required';
    END IF;
    IF btrim(coalesce(p_public_title, t.public_title)) = btrim(t.body) THEN
      RAISE EXCEPTION USING errcode = 'P0001', message = 'the headline must not repeat the report';
    END IF;
  END IF;
  UPDATE public.vs_tickets
     SET is_public = coalesce(p_public, false),
         public_title = coalesce(nullif(btrim(p_public_title), ''), public_title)
   WHERE id = t.id;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.get_public_vs_board() RETURNS SETOF public.public_vs_board
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT * FROM public.public_vs_board ORDER BY created_at DESC
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.get_public_vs_problem(p_id text) RETURNS jsonb
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT jsonb_build_object(
           'id', b.id, 'public_title', b.public_title, 'status', b.status,
           'category_name', b.category_name, 'created_at', b.created_at,
           'comments', coalesce((SELECT jsonb_agg(jsonb_build_object('author', c.author_label, 'body', c.body,
                                                                     'created_at', c.created_at) ORDER BY c.created_at)
                                   FROM public.vs_public_comments c WHERE c.ticket_id = b.id), '[]'::jsonb))
    FROM public.public_vs_board b
   WHERE b.id = p_id
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.vs_post_public_comment(p_id text, p_body text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ''
AS $$
DECLARE
  t public.vs_tickets;
  new_id text;
BEGIN
  PERFORM public.require_role();
  SELECT * INTO t FROM public.vs_tickets WHERE id = p_id AND deleted_at IS NULL;
  IF NOT FOUND OR NOT EXISTS (SELECT 1 FROM public.public_vs_board b WHERE b.id = p_id) THEN
    RAISE EXCEPTION USING errcode = 'P0002', message = 'NOT_FOUND';
  END IF;
  IF nullif(btrim(p_body), '') IS NULL THEN
    RAISE EXCEPTION USING errcode = 'P0001', message = 'a comment needs text';
  END IF;
  INSERT INTO public.vs_public_comments (ticket_id, author_id, author_label, body)
  VALUES (t.id, public.current_app_user_id(),
          CASE WHEN public.can_handle_vs(t.target_dept) THEN 'staff'
               WHEN t.submitter_id = public.current_app_user_id() THEN 'submitter'
               ELSE 'member' END,
          p_body)
  RETURNING id INTO new_id;
  RETURN new_id;
END
$$;
--> statement-breakpoint
-- What the submitter's tracking page shows next to a ticket: never a duplicate's id (rule 12).
CREATE OR REPLACE FUNCTION public.get_vs_linked_context(p_id text) RETURNS jsonb
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = ''
AS $$
DECLARE
  t public.vs_tickets;
  handler boolean;
BEGIN
  PERFORM public.require_role();
  SELECT * INTO t FROM public.vs_tickets WHERE id = p_id AND deleted_at IS NULL;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  handler := public.can_handle_vs(t.target_dept);
  IF NOT handler AND t.submitter_id IS DISTINCT FROM public.current_app_user_id() THEN
    RAISE EXCEPTION USING errcode = '42501', message = 'NOT_AUTHORIZED';
  END IF;
  RETURN jsonb_build_object(
    'id', t.id,
    'status', t.status,
    'is_duplicate', t.is_duplicate,
    'duplicate_of', CASE WHEN handler THEN to_jsonb(t.duplicate_of) ELSE 'null'::jsonb END,
    'public_problem', (SELECT jsonb_build_object('public_title', b.public_title, 'status', b.status)
                         FROM public.public_vs_board b
                        WHERE b.id = coalesce(t.duplicate_of, t.id)
                          AND (handler OR b.id = t.id)));
END
$$;
--> statement-breakpoint
-- Org chart (rule 11): public nodes reachable from a public root through public nodes only.
CREATE OR REPLACE FUNCTION public.node_effective_is_public(p_node_id text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  WITH RECURSIVE up AS (
    SELECT n.id, n.parent_id, n.is_public, 1 AS depth FROM public.team_nodes n WHERE n.id = p_node_id
    UNION ALL
    SELECT p.id, p.parent_id, p.is_public, up.depth + 1
      FROM public.team_nodes p JOIN up ON p.id = up.parent_id
     WHERE up.depth < 64
  )
  SELECT coalesce(bool_and(is_public), false) AND count(*) > 0 FROM up
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.get_public_org_chart() RETURNS jsonb
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  WITH RECURSIVE visible AS (
    SELECT n.id, n.parent_id, n.name, n.kind, n.position
      FROM public.team_nodes n WHERE n.parent_id IS NULL AND n.is_public
    UNION
    SELECT c.id, c.parent_id, c.name, c.kind, c.position
      FROM public.team_nodes c JOIN visible v ON c.parent_id = v.id
     WHERE c.is_public
  )
  SELECT jsonb_build_object(
    'nodes', coalesce((SELECT jsonb_agg(jsonb_build_object('id', v.id, 'parent_id', v.parent_id, 'name', v.name,
                                                           'kind', v.kind, 'position', v.position)
                                        ORDER BY v.position, v.id) FROM visible v), '[]'::jsonb),
    'members', coalesce((SELECT jsonb_agg(jsonb_build_object('node_id', m.node_id, 'name', m.name,
                                                             'nickname', m.nickname, 'position', m.position)
                                          ORDER BY m.node_id, m.position, m.id)
                           FROM public.team_members m JOIN visible v ON v.id = m.node_id), '[]'::jsonb))
$$;
--> statement-breakpoint
-- Invitation by e-mail: team rows are made for a kkumail before the person signs up.
CREATE OR REPLACE FUNCTION public.effective_team_permissions_for_email(p_email text) RETURNS text[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT coalesce(array_agg(DISTINCT p ORDER BY p), '{}')
    FROM public.team_members m, unnest(m.permissions) p
   WHERE lower(m.kkumail) = lower(p_email)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.sync_my_team_permissions() RETURNS text[]
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ''
AS $$
DECLARE
  me bigint := public.current_app_user_id();
  my_email text := auth.email();
  perms text[];
BEGIN
  IF me IS NULL OR my_email IS NULL THEN
    RAISE EXCEPTION USING errcode = '42501', message = 'NOT_AUTHORIZED';
  END IF;
  UPDATE public.team_members SET user_id = me
   WHERE lower(kkumail) = lower(my_email) AND user_id IS NULL;
  perms := public.effective_team_permissions_for_email(my_email);
  UPDATE public.users SET managed_permissions = perms WHERE id = me;
  RETURN (SELECT array(SELECT DISTINCT x FROM unnest(u.permissions || u.managed_permissions) x ORDER BY x)
            FROM public.users u WHERE u.id = me);
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.get_my_student_record() RETURNS jsonb
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = ''
AS $$
DECLARE
  me bigint := public.current_app_user_id();
  rec public.student_records;
BEGIN
  IF me IS NULL THEN
    RAISE EXCEPTION USING errcode = '42501', message = 'NOT_AUTHORIZED';
  END IF;
  SELECT * INTO rec FROM public.student_records WHERE user_id = me;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  RETURN jsonb_build_object(
    'record', to_jsonb(rec),
    'change_requests', coalesce((
      SELECT jsonb_agg(jsonb_build_object('id', q.id, 'field', q.field, 'requested_value', q.requested_value,
                                          'status', q.status, 'verdict', q.verdict, 'admin_note', q.admin_note,
                                          'applied_value', q.applied_value, 'created_at', q.created_at,
                                          'decided_at', q.decided_at) ORDER BY q.created_at DESC, q.id DESC)
        FROM (SELECT * FROM public.student_change_requests r
               WHERE r.student_record_id = rec.id
               ORDER BY r.created_at DESC, r.id DESC
               LIMIT 10) q), '[]'::jsonb));
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.request_student_change(p_field text, p_value text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ''
AS $$
DECLARE
  rec_id bigint;
  new_id bigint;
BEGIN
  SELECT r.id INTO rec_id FROM public.student_records r WHERE r.user_id = public.current_app_user_id();
  IF rec_id IS NULL THEN
    RAISE EXCEPTION USING errcode = '42501', message = 'NOT_AUTHORIZED';
  END IF;
  IF p_field NOT IN ('full_name', 'faculty', 'major', 'year') THEN
    RAISE EXCEPTION USING errcode = 'P0001', message = format('%s cannot be changed by request', p_field);
  END IF;
  INSERT INTO public.student_change_requests (student_record_id, field, requested_value)
  VALUES (rec_id, p_field, p_value) RETURNING id INTO new_id;
  RETURN new_id;
END
$$;
--> statement-breakpoint
-- EXECUTE (rule 15): Supabase grants it to anon and authenticated on every new function, so
-- revoke from each role by name, then grant what is meant.
REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC, anon, authenticated;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION
  public.nanoid(integer, text),
  public.current_app_user_id(), public.my_person_id(), public.current_user_role(), public.current_user_dept(),
  public.current_user_is_staff(), public.current_user_is_admin(), public.current_user_has_permission(text),
  public.current_user_is_project_actor(), public.can_handle_vs(text), public.can_handle_pr(),
  public.can_manage_shop(), public.is_addressed_professor(text), public.is_api_caller(),
  public.changed_columns(jsonb, jsonb, text[]),
  public.get_vs_ticket_by_id(text), public.get_pr_ticket_by_id(text),
  public.get_public_vs_board(), public.get_public_vs_problem(text), public.get_public_org_chart()
TO anon, authenticated;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION
  public.soft_delete_vs_ticket(text), public.soft_delete_pr_ticket(text), public.vs_add_remark(text, text),
  public.find_similar_vs_tickets(text), public.merge_vs_tickets(text, text), public.vs_transfer_dept(text, text, jsonb),
  public.vs_set_public(text, boolean, text), public.vs_post_public_comment(text, text),
  public.get_vs_linked_context(text), public.sync_my_team_permissions(), public.get_my_student_record(),
  public.request_student_change(text, text)
TO authenticated;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC, anon, authenticated;
