CREATE TABLE public.events (
  id BIGSERIAL PRIMARY KEY,
  club_id BIGINT REFERENCES public.clubs (id) ON DELETE SET NULL,
  title TEXT NOT NULL,
  starts_at TIMESTAMPTZ NOT NULL,
  published BOOLEAN NOT NULL DEFAULT FALSE
);
ALTER TABLE public.events ENABLE ROW LEVEL SECURITY;
CREATE POLICY "published events are public" ON public.events FOR SELECT USING (published OR app.is_officer());
CREATE POLICY "officers manage events" ON public.events FOR ALL TO authenticated USING (app.is_officer()) WITH CHECK (app.is_officer());
