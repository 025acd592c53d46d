CREATE TABLE public.press_request_tags (
  request_ref TEXT NOT NULL REFERENCES public.press_requests (ref) ON DELETE CASCADE,
  tag_id INTEGER NOT NULL REFERENCES public.tags (id),
  PRIMARY KEY (request_ref, tag_id)
);
ALTER TABLE public.press_request_tags ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tags of visible requests" ON public.press_request_tags FOR SELECT TO authenticated
  USING (EXISTS (SELECT 1 FROM public.press_requests p WHERE p.ref = request_ref));
