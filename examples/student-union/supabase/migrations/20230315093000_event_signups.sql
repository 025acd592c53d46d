CREATE TABLE public.event_signups (
  event_id BIGINT NOT NULL REFERENCES public.events (id) ON DELETE CASCADE,
  member_id UUID NOT NULL REFERENCES public.members (id) ON DELETE CASCADE,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (event_id, member_id)
);
ALTER TABLE public.event_signups ENABLE ROW LEVEL SECURITY;
CREATE POLICY "own signups" ON public.event_signups FOR ALL TO authenticated
  USING (member_id = auth.uid()) WITH CHECK (member_id = auth.uid());
