CREATE TABLE public.tags (
  id SERIAL PRIMARY KEY,
  label TEXT NOT NULL UNIQUE
);
ALTER TABLE public.tags ENABLE ROW LEVEL SECURITY;
CREATE POLICY "tags are public" ON public.tags FOR SELECT USING (TRUE);
INSERT INTO public.tags (label) VALUES ('poster'), ('article'), ('social');
