-- Hand-written: Prisma does not model RLS, generated columns or deferrable keys.
-- The app (Prisma, service role) bypasses all of this; the browser talks to
-- Supabase's REST API with the user's JWT, and these rules are what hold there.

-- Generated column Prisma cannot express (mapped as Unsupported / read-only in schema.prisma).
ALTER TABLE "VsTicket"
  ADD COLUMN "isDuplicate" BOOLEAN GENERATED ALWAYS AS ("duplicateOfId" IS NOT NULL) STORED;

-- Imports insert trees and duplicate chains in any order: check the keys at commit.
ALTER TABLE "TeamNode" ALTER CONSTRAINT "TeamNode_parentId_fkey" DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE "VsTicket" ALTER CONSTRAINT "VsTicket_duplicateOfId_fkey" DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE "TeamMember" ALTER CONSTRAINT "TeamMember_nodeId_fkey" DEFERRABLE INITIALLY DEFERRED;

ALTER TABLE "VsTicket" ADD CONSTRAINT "VsTicket_remarks_is_array" CHECK (jsonb_typeof("remarks") = 'array');
ALTER TABLE "ShopOrder" ADD CONSTRAINT "ShopOrder_amounts_check" CHECK ("subtotal" >= 0 AND "fee" >= 0 AND "total" >= 0);

-- @updatedAt is filled by Prisma on the client; rows written through PostgREST need it too.
CREATE OR REPLACE FUNCTION public.set_updated_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW."updatedAt" := now();
  RETURN NEW;
END $$;

CREATE OR REPLACE FUNCTION public.set_updated_at_on_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW."updatedAt" := coalesce(NEW."updatedAt", now());
  RETURN NEW;
END $$;

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['User','VsTicket','PrTicket','ShopOrder','Project','ProjectSetting','StudentRecord'] LOOP
    EXECUTE format('CREATE TRIGGER %I BEFORE UPDATE ON public.%I FOR EACH ROW EXECUTE FUNCTION public.set_updated_at()', t || '_updatedAt', t);
    EXECUTE format('CREATE TRIGGER %I BEFORE INSERT ON public.%I FOR EACH ROW EXECUTE FUNCTION public.set_updated_at_on_insert()', t || '_updatedAt_ins', t);
  END LOOP;
END $$;
CREATE TRIGGER "profiles_updatedAt" BEFORE UPDATE ON passport.profiles FOR EACH ROW EXECUTE FUNCTION public.set_updated_at();
CREATE TRIGGER "profiles_updatedAt_ins" BEFORE INSERT ON passport.profiles FOR EACH ROW EXECUTE FUNCTION public.set_updated_at_on_insert();

-- ---------------------------------------------------------------------------
-- Identity. We read the JWT ourselves (our ids are text, not uuid, so auth.uid()
-- would only get in the way).
-- ---------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION public.request_user_id() RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT nullif(nullif(current_setting('request.jwt.claims', true), '')::json ->> 'sub', '')
$$;

CREATE OR REPLACE FUNCTION public.current_user_role() RETURNS "Role"
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT u."role" FROM "User" u WHERE u."id" = public.request_user_id()
$$;

CREATE OR REPLACE FUNCTION public.current_user_dept() RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT u."department" FROM "User" u WHERE u."id" = public.request_user_id()
$$;

CREATE OR REPLACE FUNCTION public.current_user_is_staff() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT coalesce(public.current_user_role() IN ('staff','pr_staff','vs_staff','vp_admin','dev','admin'), false)
$$;

CREATE OR REPLACE FUNCTION public.current_user_is_admin() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT coalesce(public.current_user_role() IN ('dev','admin'), false)
$$;

CREATE OR REPLACE FUNCTION public.current_user_has_permission(p_permission text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT coalesce((
    SELECT p_permission = ANY (
      array_cat(coalesce(u."permissions", '{}')::text[], coalesce(u."managedPermissions", '{}')::text[]))
    FROM "User" u WHERE u."id" = public.request_user_id()), false)
$$;

-- VS handler of a department: vs_staff/admin/dev everywhere; vp_admin and holders of
-- the vs permission only in their own department. Unknown dept => no.
CREATE OR REPLACE FUNCTION public.current_user_can_handle_vs(p_dept text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT CASE
    WHEN public.current_user_role() IS NULL THEN false
    WHEN public.current_user_role() IN ('vs_staff','dev','admin') THEN true
    WHEN p_dept IS NULL THEN false
    WHEN public.current_user_role() = 'vp_admin' OR public.current_user_has_permission('vs')
      THEN p_dept = public.current_user_dept()
    ELSE false
  END
$$;

CREATE OR REPLACE FUNCTION public.current_user_can_handle_pr() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT coalesce(public.current_user_role() IN ('pr_staff','staff','dev','admin'), false)
      OR (public.current_user_role() IS NOT NULL AND public.current_user_has_permission('pr'))
$$;

CREATE OR REPLACE FUNCTION public.current_user_can_handle_shop() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT coalesce(public.current_user_role() IN ('staff','dev','admin'), false)
      OR (public.current_user_role() IS NOT NULL AND public.current_user_has_permission('house'))
$$;

CREATE OR REPLACE FUNCTION public.current_user_is_project_actor(p_project_id text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT EXISTS (
    SELECT 1 FROM "Project" p
    WHERE p."id" = p_project_id AND p."ownerId" = public.request_user_id())
  OR EXISTS (
    SELECT 1 FROM "_ProjectToUser" pu
    WHERE pu."A" = p_project_id AND pu."B" = public.request_user_id())
$$;

CREATE OR REPLACE FUNCTION public.current_user_is_addressed_professor(p_project_id text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT public.current_user_role() = 'sa_prof' AND EXISTS (
    SELECT 1 FROM "ProjectSignRequest" r
    WHERE r."projectId" = p_project_id AND r."professorId" = public.request_user_id())
$$;

CREATE OR REPLACE FUNCTION public.my_person_id() RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT p."id" FROM "Person" p WHERE p."userId" = public.request_user_id()
$$;

-- A category that does not resolve counts as confidential and not eligible.
CREATE OR REPLACE FUNCTION public.vs_ticket_on_board(p_ticket_id text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT coalesce((
    SELECT t."isPublic"
       AND t."deletedAt" IS NULL
       AND nullif(btrim(t."publicTitle"), '') IS NOT NULL
       AND c."id" IS NOT NULL
       AND NOT c."isConfidential"
       AND c."publicEligible"
    FROM "VsTicket" t LEFT JOIN "VsCategory" c ON c."id" = t."categoryId"
    WHERE t."id" = p_ticket_id), false)
$$;

-- Team permission resolvers: answer about somebody else, so private.
CREATE OR REPLACE FUNCTION public.node_effective_permissions(p_node_id text) RETURNS text[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT coalesce(array_agg(DISTINCT p ORDER BY p), '{}')
  FROM "TeamMember" m, unnest(m."permissions"::text[]) AS p
  WHERE m."nodeId" = p_node_id
$$;

CREATE OR REPLACE FUNCTION public.effective_team_permissions_for_email(p_email text) RETURNS text[]
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT coalesce(array_agg(DISTINCT p ORDER BY p), '{}')
  FROM "TeamMember" m, unnest(m."permissions"::text[]) AS p
  WHERE lower(btrim(m."kkumail")) = lower(btrim(p_email))
$$;

CREATE OR REPLACE FUNCTION public.effective_team_dept_for_email(p_email text) RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT m."vsDept" FROM "TeamMember" m
  WHERE lower(btrim(m."kkumail")) = lower(btrim(p_email)) AND m."vsDept" IS NOT NULL
  ORDER BY m."id" LIMIT 1
$$;

REVOKE ALL ON FUNCTION public.node_effective_permissions(text) FROM PUBLIC, anon, authenticated;
REVOKE ALL ON FUNCTION public.effective_team_permissions_for_email(text) FROM PUBLIC, anon, authenticated;
REVOKE ALL ON FUNCTION public.effective_team_dept_for_email(text) FROM PUBLIC, anon, authenticated;
REVOKE ALL ON FUNCTION public.set_updated_at() FROM PUBLIC, anon, authenticated;
REVOKE ALL ON FUNCTION public.set_updated_at_on_insert() FROM PUBLIC, anon, authenticated;

-- ---------------------------------------------------------------------------
-- Owner guards (rule 1): whole row minus an allow-list; new columns are guarded.
-- ---------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION public.row_changes_outside(p_old jsonb, p_new jsonb, p_allowed text[])
RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT (p_old - p_allowed) IS DISTINCT FROM (p_new - p_allowed)
$$;

CREATE OR REPLACE FUNCTION public.guard_user_update() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF public.request_user_id() IS NULL THEN RETURN NEW; END IF;  -- server context
  IF OLD."id" = public.request_user_id() AND NOT public.current_user_is_staff()
     AND public.row_changes_outside(to_jsonb(OLD), to_jsonb(NEW),
           ARRAY['name','avatarUrl','phone','updatedAt']) THEN
    RAISE EXCEPTION 'You can only change your name, avatar and phone' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "User_guard" BEFORE UPDATE ON "User" FOR EACH ROW EXECUTE FUNCTION public.guard_user_update();

CREATE OR REPLACE FUNCTION public.guard_vs_ticket_update() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  v_uid text := public.request_user_id();
  v_old_n int := jsonb_array_length(OLD."remarks");
  v_new_n int := jsonb_array_length(NEW."remarks");
  v_entry jsonb;
BEGIN
  IF v_uid IS NULL THEN RETURN NEW; END IF;
  IF NEW."deletedAt" IS DISTINCT FROM OLD."deletedAt"
     AND current_setting('app.soft_delete', true) IS DISTINCT FROM 'on' THEN
    RAISE EXCEPTION 'Use soft_delete_vs_ticket' USING ERRCODE = '42501';
  END IF;
  IF v_new_n > 50 AND v_new_n > v_old_n THEN
    RAISE EXCEPTION 'Too many remarks (max 50)' USING ERRCODE = '23514';
  END IF;
  IF OLD."submitterId" = v_uid AND NOT public.current_user_can_handle_vs(OLD."targetDept") THEN
    IF public.row_changes_outside(to_jsonb(OLD), to_jsonb(NEW),
         ARRAY['remarks','title','body','version','updatedAt','isDuplicate']) THEN
      RAISE EXCEPTION 'Submitters may only edit their report and add remarks' USING ERRCODE = '42501';
    END IF;
    IF v_new_n < v_old_n OR
       (SELECT coalesce(jsonb_agg(e ORDER BY i), '[]'::jsonb)
          FROM jsonb_array_elements(NEW."remarks") WITH ORDINALITY AS x(e, i) WHERE i <= v_old_n)
         IS DISTINCT FROM OLD."remarks" THEN
      RAISE EXCEPTION 'Remarks are append-only' USING ERRCODE = '42501';
    END IF;
    FOR v_entry IN SELECT e FROM jsonb_array_elements(NEW."remarks") WITH ORDINALITY AS x(e, i) WHERE i > v_old_n LOOP
      IF v_entry ->> 'vis' IS DISTINCT FROM 'ticket'
         OR v_entry ->> 'by' IS DISTINCT FROM OLD."submitterLabel"
         OR coalesce((v_entry ->> 'internal')::boolean, false) THEN
        RAISE EXCEPTION 'A remark you add must be visible on the ticket and signed with your label' USING ERRCODE = '42501';
      END IF;
    END LOOP;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "VsTicket_guard" BEFORE UPDATE ON "VsTicket" FOR EACH ROW EXECUTE FUNCTION public.guard_vs_ticket_update();

CREATE OR REPLACE FUNCTION public.guard_pr_ticket_update() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF public.request_user_id() IS NULL THEN RETURN NEW; END IF;
  IF NEW."deletedAt" IS DISTINCT FROM OLD."deletedAt"
     AND current_setting('app.soft_delete', true) IS DISTINCT FROM 'on' THEN
    RAISE EXCEPTION 'Use soft_delete_pr_ticket' USING ERRCODE = '42501';
  END IF;
  IF OLD."submitterId" = public.request_user_id() AND NOT public.current_user_can_handle_pr()
     AND public.row_changes_outside(to_jsonb(OLD), to_jsonb(NEW), ARRAY['brief','fileUrl','updatedAt']) THEN
    RAISE EXCEPTION 'Submitters may only edit the brief and the file' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "PrTicket_guard" BEFORE UPDATE ON "PrTicket" FOR EACH ROW EXECUTE FUNCTION public.guard_pr_ticket_update();

CREATE OR REPLACE FUNCTION public.guard_shop_order_update() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF public.request_user_id() IS NULL THEN RETURN NEW; END IF;
  IF OLD."buyerId" = public.request_user_id() AND NOT public.current_user_can_handle_shop() THEN
    IF public.row_changes_outside(to_jsonb(OLD), to_jsonb(NEW),
         ARRAY['slipUrls','shippingName','shippingPhone','shippingAddress','status','version','updatedAt']) THEN
      RAISE EXCEPTION 'Buyers may only attach slips and edit delivery details' USING ERRCODE = '42501';
    END IF;
    IF NEW."status" NOT IN ('pending','review','slip_mismatch') THEN
      RAISE EXCEPTION 'Buyers cannot set status %', NEW."status" USING ERRCODE = '42501';
    END IF;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "ShopOrder_guard" BEFORE UPDATE ON "ShopOrder" FOR EACH ROW EXECUTE FUNCTION public.guard_shop_order_update();

CREATE OR REPLACE FUNCTION public.guard_profile_update() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF public.request_user_id() IS NULL THEN RETURN NEW; END IF;
  IF OLD."userId" = public.request_user_id() AND NOT public.current_user_is_admin()
     AND public.row_changes_outside(to_jsonb(OLD), to_jsonb(NEW), ARRAY['displayName','faculty','updatedAt']) THEN
    RAISE EXCEPTION 'You can only change your display name and faculty' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "profiles_guard" BEFORE UPDATE ON passport.profiles FOR EACH ROW EXECUTE FUNCTION public.guard_profile_update();

REVOKE ALL ON FUNCTION public.guard_user_update() FROM PUBLIC, anon, authenticated;
REVOKE ALL ON FUNCTION public.guard_vs_ticket_update() FROM PUBLIC, anon, authenticated;
REVOKE ALL ON FUNCTION public.guard_pr_ticket_update() FROM PUBLIC, anon, authenticated;
REVOKE ALL ON FUNCTION public.guard_shop_order_update() FROM PUBLIC, anon, authenticated;
REVOKE ALL ON FUNCTION public.guard_profile_update() FROM PUBLIC, anon, authenticated;
