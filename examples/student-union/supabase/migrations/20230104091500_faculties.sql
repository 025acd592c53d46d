CREATE TABLE public.faculties (
  code TEXT PRIMARY KEY,
  title TEXT NOT NULL
);
ALTER TABLE public.faculties ENABLE ROW LEVEL SECURITY;
CREATE POLICY "faculties are public" ON public.faculties FOR SELECT USING (TRUE);

INSERT INTO public.faculties (code, title) VALUES
  ('ENG', 'Engineering'), ('SCI', 'Science'), ('ART', 'Arts'), ('LAW', 'Law'), ('MED', 'Medicine');
