-- Archiving hides a request everywhere; it returns the archived request.
CREATE FUNCTION public.archive_press_request(p_ref TEXT)
RETURNS public.press_requests
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  archived public.press_requests;
BEGIN
  IF auth.uid() IS NULL THEN
    RAISE EXCEPTION 'not authorized' USING ERRCODE = '42501';
  END IF;
  UPDATE public.press_requests SET archived_at = now()
   WHERE press_requests.ref = p_ref AND archived_at IS NULL
  RETURNING * INTO archived;
  RETURN archived;
END $$;
