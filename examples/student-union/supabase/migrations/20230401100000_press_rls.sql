ALTER TABLE public.press_requests ENABLE ROW LEVEL SECURITY;

CREATE POLICY "requesters and the press office read live requests" ON public.press_requests
  FOR SELECT TO authenticated
  USING (archived_at IS NULL AND (requested_by = auth.uid() OR app.is_press_office()));

CREATE POLICY "file a request" ON public.press_requests
  FOR INSERT TO authenticated
  WITH CHECK (
    archived_at IS NULL AND state = 'new' AND staff_note IS NULL
    AND (requested_by = auth.uid() OR app.is_press_office() OR app.my_role() = 'advisor')
  );

CREATE POLICY "edit live requests" ON public.press_requests
  FOR UPDATE TO authenticated
  USING (archived_at IS NULL AND (requested_by = auth.uid() OR app.is_press_office()))
  WITH CHECK (archived_at IS NULL AND (requested_by = auth.uid() OR app.is_press_office()));
