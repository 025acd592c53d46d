-- Exactly one row of union-wide settings.
CREATE TABLE public.app_settings (
  id BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (id),
  shop_open BOOLEAN NOT NULL DEFAULT TRUE,
  term TEXT NOT NULL DEFAULT '2023-spring'
);
INSERT INTO public.app_settings (id) VALUES (TRUE);
ALTER TABLE public.app_settings ENABLE ROW LEVEL SECURITY;
CREATE POLICY "settings are readable" ON public.app_settings FOR SELECT USING (TRUE);
