CREATE TABLE public.feedback (
  id BIGSERIAL PRIMARY KEY,
  member_id UUID REFERENCES public.members (id) ON DELETE SET NULL,
  rating SMALLINT NOT NULL CHECK (rating BETWEEN 1 AND 5),
  remark TEXT
);
ALTER TABLE public.feedback ENABLE ROW LEVEL SECURITY;
CREATE POLICY "leave feedback" ON public.feedback FOR INSERT TO authenticated WITH CHECK (member_id = auth.uid());
