CREATE FUNCTION app.guard_press_request_update() RETURNS TRIGGER
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  editable TEXT[] := ARRAY['body', 'attachment', 'updated_at'];
BEGIN
  IF auth.uid() IS NULL OR app.is_press_office() OR OLD.requested_by IS DISTINCT FROM auth.uid() THEN
    RETURN NEW;
  END IF;
  IF (to_jsonb(NEW) - editable) IS DISTINCT FROM (to_jsonb(OLD) - editable) THEN
    RAISE EXCEPTION 'not authorized: requesters may change only the text and the attachment' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER guard_press_request_update BEFORE UPDATE ON public.press_requests
  FOR EACH ROW EXECUTE FUNCTION app.guard_press_request_update();
