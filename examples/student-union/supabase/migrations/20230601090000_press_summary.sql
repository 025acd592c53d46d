-- "body" was ambiguous next to announcements.body.
ALTER TABLE public.press_requests RENAME COLUMN body TO summary;

CREATE OR REPLACE FUNCTION app.guard_press_request_update() RETURNS TRIGGER
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  editable TEXT[] := ARRAY['summary', 'attachment', 'updated_at'];
BEGIN
  IF auth.uid() IS NULL OR app.is_press_office() OR OLD.requested_by IS DISTINCT FROM auth.uid() THEN
    RETURN NEW;
  END IF;
  IF (to_jsonb(NEW) - editable) IS DISTINCT FROM (to_jsonb(OLD) - editable) THEN
    RAISE EXCEPTION 'not authorized: requesters may change only the text and the attachment' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END $$;

DROP FUNCTION public.lookup_press_request(TEXT);
CREATE FUNCTION public.lookup_press_request(p_ref TEXT)
RETURNS TABLE (ref TEXT, requester_name TEXT, summary TEXT, attachment TEXT, state TEXT)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
BEGIN
  RETURN QUERY
    SELECT p.ref, p.requester_name, p.summary, p.attachment, p.state
      FROM public.press_requests p
     WHERE p.archived_at IS NULL AND lower(trim(p.ref)) = lower(trim(p_ref));
END $$;
