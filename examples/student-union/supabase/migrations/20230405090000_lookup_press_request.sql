-- Guests follow up on a request by its ref (any case, surrounding spaces ignored).
CREATE FUNCTION public.lookup_press_request(p_ref TEXT)
RETURNS TABLE (ref TEXT, requester_name TEXT, body TEXT, attachment TEXT, state TEXT)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
BEGIN
  RETURN QUERY
    SELECT p.ref, p.requester_name, p.body, p.attachment, p.state
      FROM public.press_requests p
     WHERE p.archived_at IS NULL AND lower(trim(p.ref)) = lower(trim(p_ref));
END $$;
