-- Security fix: any signed-in member could archive any request. Only the press office may,
-- and only officers among them.
CREATE OR REPLACE FUNCTION public.archive_press_request(p_ref TEXT)
RETURNS public.press_requests
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  archived public.press_requests;
BEGIN
  IF auth.uid() IS NULL OR app.my_role() IS NULL OR NOT app.is_officer() OR NOT app.is_press_office() THEN
    RAISE EXCEPTION 'not authorized' USING ERRCODE = '42501';
  END IF;
  UPDATE public.press_requests SET archived_at = now()
   WHERE press_requests.ref = p_ref AND archived_at IS NULL
  RETURNING * INTO archived;
  RETURN archived;
END $$;
