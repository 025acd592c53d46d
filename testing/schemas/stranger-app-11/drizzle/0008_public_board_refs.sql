-- Fix found by policyfuzz (R13/R14): the public board listed each ticket's id, and the id is the
-- tracking capability get_vs_ticket_by_id answers the whole ticket for (rule 14). The board now
-- shows a random public handle instead, and its functions take that handle.
ALTER TABLE "vs_tickets" ADD COLUMN "public_ref" text DEFAULT nanoid(16) NOT NULL;--> statement-breakpoint
ALTER TABLE "vs_tickets" ADD CONSTRAINT "vs_tickets_public_ref_unique" UNIQUE("public_ref");--> statement-breakpoint
-- Drops the comments' read policy and get_public_vs_board(), which depend on the view.
DROP VIEW public.public_vs_board CASCADE;
--> statement-breakpoint
CREATE VIEW public.public_vs_board WITH (security_barrier = true) AS
  SELECT t.public_ref, t.public_title, t.status, c.name AS category_name, t.created_at
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
-- Whether a ticket is on the board: the view's predicate, read with the definer's rights; in a
-- schema the API does not expose (the comments' read policy calls it as the caller).
CREATE SCHEMA IF NOT EXISTS private;
--> statement-breakpoint
GRANT USAGE ON SCHEMA private TO anon, authenticated;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION private.vs_ticket_on_board(p_ticket_id text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT EXISTS (SELECT 1 FROM public.vs_tickets t JOIN public.public_vs_board b ON b.public_ref = t.public_ref
                  WHERE t.id = p_ticket_id)
$$;
--> statement-breakpoint
CREATE POLICY vs_public_comments_read ON public.vs_public_comments FOR SELECT TO anon, authenticated
  USING (private.vs_ticket_on_board(ticket_id));
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.get_public_vs_board() RETURNS SETOF public.public_vs_board
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT * FROM public.public_vs_board ORDER BY created_at DESC
$$;
--> statement-breakpoint
DROP FUNCTION public.get_public_vs_problem(text);
--> statement-breakpoint
CREATE FUNCTION public.get_public_vs_problem(p_ref text) RETURNS jsonb
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = ''
AS $$
  SELECT jsonb_build_object(
           'public_ref', b.public_ref, 'public_title', b.public_title, 'status', b.status,
           'category_name', b.category_name, 'created_at', b.created_at,
           'comments', coalesce((SELECT jsonb_agg(jsonb_build_object('author', c.author_label, 'body', c.body,
                                                                     'created_at', c.created_at) ORDER BY c.created_at)
                                   FROM public.vs_public_comments c JOIN public.vs_tickets t ON t.id = c.ticket_id
                                  WHERE t.public_ref = b.public_ref), '[]'::jsonb))
    FROM public.public_vs_board b
   WHERE b.public_ref = p_ref
$$;
--> statement-breakpoint
DROP FUNCTION public.vs_post_public_comment(text, text);
--> statement-breakpoint
CREATE FUNCTION public.vs_post_public_comment(p_ref text, p_body text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ''
AS $$
DECLARE
  t public.vs_tickets;
  new_id text;
BEGIN
  PERFORM public.require_role();
  SELECT * INTO t FROM public.vs_tickets WHERE public_ref = p_ref AND deleted_at IS NULL;
  IF NOT FOUND OR NOT private.vs_ticket_on_board(t.id) THEN
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
    'public_problem', (SELECT jsonb_build_object('public_ref', b.public_ref, 'public_title', b.public_title, 'status', b.status)
                         FROM public.vs_tickets linked JOIN public.public_vs_board b ON b.public_ref = linked.public_ref
                        WHERE linked.id = coalesce(t.duplicate_of, t.id)
                          AND (handler OR linked.id = t.id)));
END
$$;
--> statement-breakpoint
-- get_vs_ticket_by_id returns the table's row type: it carries the new column too.
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
         t.deleted_at, t.created_at, t.updated_at, t.public_ref
    FROM public.vs_tickets t
   WHERE t.id = p_id
     AND t.deleted_at IS NULL
$$;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION private.vs_ticket_on_board(text), public.get_public_vs_board(), public.get_public_vs_problem(text),
  public.vs_post_public_comment(text, text) FROM PUBLIC, anon, authenticated;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION private.vs_ticket_on_board(text), public.get_public_vs_board(), public.get_public_vs_problem(text) TO anon, authenticated;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION public.vs_post_public_comment(text, text) TO authenticated;
