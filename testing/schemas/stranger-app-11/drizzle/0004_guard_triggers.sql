-- Custom migration: column and state-transition guards, as BEFORE triggers (the legacy app
-- enforced these in its service layer; row security cannot see columns). Each guard compares the
-- whole row minus an allow-list, so a column added later is guarded by default (rule 1). Server
-- contexts (no auth.uid()) and our own definer functions (current_user is not an API role) are
-- not guarded.

CREATE OR REPLACE FUNCTION public.is_api_caller() RETURNS boolean
LANGUAGE sql STABLE SET search_path = ''
AS $$
  SELECT auth.uid() IS NOT NULL AND current_user IN ('anon', 'authenticated')
$$;
--> statement-breakpoint
-- The columns of a row that differ between two versions, outside an allow-list.
CREATE OR REPLACE FUNCTION public.changed_columns(p_old jsonb, p_new jsonb, p_allowed text[])
RETURNS text[]
LANGUAGE sql IMMUTABLE SET search_path = ''
AS $$
  SELECT coalesce(array_agg(k ORDER BY k), '{}')
    FROM (SELECT jsonb_object_keys(p_old || p_new) AS k) keys
   WHERE k <> ALL (p_allowed)
     AND (p_old -> k) IS DISTINCT FROM (p_new -> k)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.users_guard() RETURNS trigger
LANGUAGE plpgsql SET search_path = ''
AS $$
DECLARE
  bad text[];
BEGIN
  IF NOT public.is_api_caller() OR public.current_user_is_admin() THEN
    RETURN NEW;
  END IF;
  bad := public.changed_columns(to_jsonb(OLD), to_jsonb(NEW),
           ARRAY['display_name', 'avatar_url', 'phone', 'updated_at']);
  IF cardinality(bad) > 0 THEN
    RAISE EXCEPTION USING errcode = '42501',
      message = format('you may not change %s on your profile', array_to_string(bad, ', ')),
      hint = 'role, department and permissions are managed by an administrator';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_guard BEFORE UPDATE ON public.users FOR EACH ROW EXECUTE FUNCTION public.users_guard();
--> statement-breakpoint
-- vs_tickets. Handlers change what they handle; a submitter who is not a handler (no REST path
-- today: the table is not readable to them, but the rule belongs to the table) may edit the
-- report's text and append remarks. Remarks: append-only, at most 50, appended by a submitter
-- with vis 'ticket', by 'submitter', not internal. deleted_at only through the soft-delete
-- function (rule 7).
CREATE OR REPLACE FUNCTION public.vs_tickets_guard() RETURNS trigger
LANGUAGE plpgsql SET search_path = ''
AS $$
DECLARE
  bad text[];
  old_len integer := jsonb_array_length(OLD.remarks);
  new_len integer := jsonb_array_length(NEW.remarks);
  entry jsonb;
BEGIN
  IF NOT public.is_api_caller() THEN
    RETURN NEW;
  END IF;
  IF NEW.deleted_at IS DISTINCT FROM OLD.deleted_at THEN
    RAISE EXCEPTION USING errcode = '42501', message = 'deleted_at is set by soft_delete_vs_ticket()',
      hint = 'call rpc/soft_delete_vs_ticket';
  END IF;
  IF new_len > 50 THEN
    RAISE EXCEPTION USING errcode = 'P0001', message = 'a ticket holds at most 50 remarks';
  END IF;
  IF new_len < old_len
     OR (old_len > 0 AND (SELECT jsonb_agg(e ORDER BY o)
                            FROM jsonb_array_elements(NEW.remarks) WITH ORDINALITY x(e, o)
                           WHERE o <= old_len) IS DISTINCT FROM OLD.remarks) THEN
    RAISE EXCEPTION USING errcode = 'P0001', message = 'remarks are append-only';
  END IF;
  IF public.can_handle_vs(OLD.target_dept) OR public.current_user_is_admin() THEN
    RETURN NEW;
  END IF;
  IF OLD.submitter_id IS DISTINCT FROM public.current_app_user_id() THEN
    RAISE EXCEPTION USING errcode = '42501', message = 'not your ticket';
  END IF;
  bad := public.changed_columns(to_jsonb(OLD), to_jsonb(NEW),
           ARRAY['title', 'body', 'remarks', 'updated_at', 'is_duplicate']);
  IF cardinality(bad) > 0 THEN
    RAISE EXCEPTION USING errcode = '42501',
      message = format('submitters may not change %s', array_to_string(bad, ', ')),
      hint = 'ask the handling department';
  END IF;
  FOR entry IN SELECT e FROM jsonb_array_elements(NEW.remarks) WITH ORDINALITY x(e, o) WHERE o > old_len LOOP
    IF entry ->> 'vis' IS DISTINCT FROM 'ticket' OR entry ->> 'by' IS DISTINCT FROM 'submitter'
       OR coalesce(entry ->> 'internal', 'false') <> 'false' THEN
      RAISE EXCEPTION USING errcode = '42501',
        message = 'a submitter remark must have vis ''ticket'' and by ''submitter''';
    END IF;
  END LOOP;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER vs_tickets_guard BEFORE UPDATE ON public.vs_tickets FOR EACH ROW EXECUTE FUNCTION public.vs_tickets_guard();
--> statement-breakpoint
-- pr_tickets: a submitter may edit the brief and the file link of an open ticket.
CREATE OR REPLACE FUNCTION public.pr_tickets_guard() RETURNS trigger
LANGUAGE plpgsql SET search_path = ''
AS $$
DECLARE
  bad text[];
BEGIN
  IF NOT public.is_api_caller() THEN
    RETURN NEW;
  END IF;
  IF NEW.deleted_at IS DISTINCT FROM OLD.deleted_at THEN
    RAISE EXCEPTION USING errcode = '42501', message = 'deleted_at is set by soft_delete_pr_ticket()',
      hint = 'call rpc/soft_delete_pr_ticket';
  END IF;
  IF public.can_handle_pr() THEN
    RETURN NEW;
  END IF;
  bad := public.changed_columns(to_jsonb(OLD), to_jsonb(NEW), ARRAY['brief', 'file_url', 'contact_email', 'updated_at']);
  IF cardinality(bad) > 0 THEN
    RAISE EXCEPTION USING errcode = '42501',
      message = format('submitters may not change %s', array_to_string(bad, ', '));
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER pr_tickets_guard BEFORE UPDATE ON public.pr_tickets FOR EACH ROW EXECUTE FUNCTION public.pr_tickets_guard();
--> statement-breakpoint
-- shop_orders (rule 4): a buyer edits slips and delivery details while the order awaits
-- payment, and may move it between pending and review (submitting a slip); never to paid, never
-- the money columns, the admin note or the timeline.
CREATE OR REPLACE FUNCTION public.shop_orders_guard() RETURNS trigger
LANGUAGE plpgsql SET search_path = ''
AS $$
DECLARE
  bad text[];
BEGIN
  IF NOT public.is_api_caller() OR public.can_manage_shop() THEN
    RETURN NEW;
  END IF;
  IF OLD.status NOT IN ('pending', 'review', 'slip_mismatch') THEN
    RAISE EXCEPTION USING errcode = 'P0001',
      message = format('order %s is %s and can no longer be edited', OLD.order_no, OLD.status),
      hint = 'contact the shop';
  END IF;
  bad := public.changed_columns(to_jsonb(OLD), to_jsonb(NEW),
           ARRAY['payment_slips', 'shipping_name', 'shipping_address', 'shipping_phone', 'buyer_note', 'status', 'updated_at']);
  IF cardinality(bad) > 0 THEN
    RAISE EXCEPTION USING errcode = '42501',
      message = format('buyers may not change %s', array_to_string(bad, ', '));
  END IF;
  IF NEW.status IS DISTINCT FROM OLD.status AND NEW.status NOT IN ('pending', 'review') THEN
    RAISE EXCEPTION USING errcode = 'P0001',
      message = format('a buyer cannot move an order to %s', NEW.status),
      hint = 'payment is confirmed by the shop';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER shop_orders_guard BEFORE UPDATE ON public.shop_orders FOR EACH ROW EXECUTE FUNCTION public.shop_orders_guard();
--> statement-breakpoint
-- passport and project tables get theirs in their own migrations.
REVOKE EXECUTE ON FUNCTION public.users_guard(), public.vs_tickets_guard(), public.pr_tickets_guard(),
  public.shop_orders_guard() FROM PUBLIC, anon, authenticated;
