CREATE TABLE public.announcements (
  id BIGSERIAL PRIMARY KEY,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  posted_by UUID REFERENCES public.members (id) ON DELETE SET NULL,
  posted_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
ALTER TABLE public.announcements ENABLE ROW LEVEL SECURITY;
CREATE POLICY "announcements are public" ON public.announcements FOR SELECT USING (TRUE);
CREATE POLICY "officers post" ON public.announcements FOR INSERT TO authenticated WITH CHECK (app.is_officer());
