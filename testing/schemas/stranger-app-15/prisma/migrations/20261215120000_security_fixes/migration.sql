-- Hand-written: fixes from the policyfuzz run.

-- Buyers could change any column the old check didn't list (fee, id). Compare the whole row minus
-- what a buyer may edit, so a column added later is guarded by default.
CREATE OR REPLACE FUNCTION public.guard_shop_order_update() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = '' AS $$
DECLARE
  buyer_editable text[] := ARRAY['status', 'slipUrl', 'shippingName', 'shippingAddress', 'phone', 'updatedAt'];
BEGIN
  IF auth.uid() IS NULL OR public.can_handle_shop() THEN
    RETURN NEW;
  END IF;
  IF (to_jsonb(NEW) - buyer_editable) IS DISTINCT FROM (to_jsonb(OLD) - buyer_editable) THEN
    RAISE EXCEPTION 'Buyers cannot change the price or staff fields of an order' USING ERRCODE = '42501';
  END IF;
  IF NEW."status" IS DISTINCT FROM OLD."status" AND NEW."status" = 'PAID' THEN
    RAISE EXCEPTION 'Buyers cannot mark an order as paid' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END;
$$;

-- Remarks are append-only and capped for everyone, handlers included; only the submitter's own
-- entries must be ticket-visible and signed as submitter.
CREATE OR REPLACE FUNCTION public.guard_vs_ticket_update() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = '' AS $$
DECLARE
  old_count int := jsonb_array_length(OLD."remarks");
  new_count int := jsonb_array_length(NEW."remarks");
  entry jsonb;
BEGIN
  IF auth.uid() IS NULL THEN
    RETURN NEW;
  END IF;
  IF new_count < old_count THEN
    RAISE EXCEPTION 'Remarks are append-only' USING ERRCODE = '42501';
  END IF;
  FOR i IN 0 .. old_count - 1 LOOP
    IF NEW."remarks" -> i IS DISTINCT FROM OLD."remarks" -> i THEN
      RAISE EXCEPTION 'Remarks are append-only' USING ERRCODE = '42501';
    END IF;
  END LOOP;
  IF new_count > 20 AND new_count > old_count THEN
    RAISE EXCEPTION 'Too many remarks on this ticket' USING ERRCODE = '42501';
  END IF;
  IF public.can_handle_vs(OLD."targetDept") OR OLD."submitterId" IS DISTINCT FROM public.current_app_user_id() THEN
    RETURN NEW;
  END IF;
  IF (to_jsonb(NEW) - ARRAY['remarks', 'updatedAt', 'isDuplicate'])
     IS DISTINCT FROM (to_jsonb(OLD) - ARRAY['remarks', 'updatedAt', 'isDuplicate']) THEN
    RAISE EXCEPTION 'Submitters can only add remarks to their ticket' USING ERRCODE = '42501';
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

-- Orders created from the browser had no updatedAt.
DROP TRIGGER "ShopOrder_set_updated_at" ON "ShopOrder";
CREATE TRIGGER "ShopOrder_set_updated_at" BEFORE INSERT OR UPDATE ON "ShopOrder" FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();

-- Guest lookup matched with ILIKE: '%' found any ticket.
CREATE OR REPLACE FUNCTION public.get_pr_ticket_by_id(p_id text) RETURNS SETOF "PrTicket"
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT t.* FROM public."PrTicket" t
  WHERE lower(t."id") = lower(btrim(p_id)) AND t."deletedAt" IS NULL
$$;

-- A ticket whose category was deleted showed on the board; the problem page already hid it.
CREATE OR REPLACE FUNCTION public.get_public_vs_board()
RETURNS TABLE ("id" integer, "publicTitle" text, "status" "VsStatus", "categoryName" text, "createdAt" timestamp(3))
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = '' AS $$
  SELECT t."id", t."publicTitle", t."status", c."name", t."createdAt"
  FROM public."VsTicket" t
  JOIN public."VsCategory" c ON c."id" = t."categoryId"
  WHERE t."isPublic" AND t."deletedAt" IS NULL AND t."publicTitle" IS NOT NULL
    AND NOT c."isConfidential" AND c."publicEligible"
  ORDER BY t."createdAt" DESC
$$;

-- Staff other than admins could change anyone's role (a VP admin could make someone DEV).
DROP POLICY "User_update_staff" ON "User";
CREATE POLICY "User_update_admin" ON "User" FOR UPDATE TO authenticated
  USING (public.current_user_is_admin()) WITH CHECK (public.current_user_is_admin());

-- Prisma's join table for tags was created without row level security.
ALTER TABLE "_TagToVsTicket" ENABLE ROW LEVEL SECURITY;
CREATE POLICY "TagToVsTicket_select_handler" ON "_TagToVsTicket" FOR SELECT TO authenticated
  USING (EXISTS (SELECT 1 FROM public."VsTicket" t WHERE t."id" = "_TagToVsTicket"."B" AND public.can_handle_vs(t."targetDept")));
CREATE POLICY "TagToVsTicket_write_handler" ON "_TagToVsTicket" FOR ALL TO authenticated
  USING (EXISTS (SELECT 1 FROM public."VsTicket" t WHERE t."id" = "_TagToVsTicket"."B" AND public.can_handle_vs(t."targetDept")))
  WITH CHECK (EXISTS (SELECT 1 FROM public."VsTicket" t WHERE t."id" = "_TagToVsTicket"."B" AND public.can_handle_vs(t."targetDept")));

-- Supabase grants EXECUTE to anon and authenticated on new functions: revoking from PUBLIC is not enough.
REVOKE EXECUTE ON FUNCTION public.effective_team_permissions_for_email(text) FROM PUBLIC, anon, authenticated;
REVOKE EXECUTE ON FUNCTION public.find_similar_vs_tickets(integer) FROM PUBLIC, anon;
REVOKE EXECUTE ON FUNCTION public.vs_post_public_comment(integer, text) FROM PUBLIC, anon;

-- Server tools (service role) read passport too.
GRANT USAGE ON SCHEMA passport TO service_role;
GRANT ALL ON ALL TABLES IN SCHEMA passport TO service_role;
