CREATE TABLE public.clubs (
  id BIGSERIAL PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  faculty TEXT REFERENCES public.faculties (code)
);
ALTER TABLE public.clubs ENABLE ROW LEVEL SECURITY;
CREATE POLICY "clubs are public" ON public.clubs FOR SELECT USING (TRUE);
CREATE POLICY "officers manage clubs" ON public.clubs FOR ALL TO authenticated USING (app.is_officer()) WITH CHECK (app.is_officer());
