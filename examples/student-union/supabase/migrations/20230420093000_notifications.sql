CREATE TABLE public.notifications (
  id BIGSERIAL PRIMARY KEY,
  member_id UUID NOT NULL REFERENCES public.members (id) ON DELETE CASCADE,
  message TEXT NOT NULL,
  read BOOLEAN NOT NULL DEFAULT FALSE
);
ALTER TABLE public.notifications ENABLE ROW LEVEL SECURITY;
CREATE POLICY "own notifications" ON public.notifications FOR SELECT TO authenticated USING (member_id = auth.uid());
CREATE POLICY "mark read" ON public.notifications FOR UPDATE TO authenticated USING (member_id = auth.uid()) WITH CHECK (member_id = auth.uid());
