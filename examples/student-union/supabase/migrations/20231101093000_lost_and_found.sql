CREATE TABLE public.lost_items (
  id BIGSERIAL PRIMARY KEY,
  description TEXT NOT NULL,
  found_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  claimed_by UUID REFERENCES public.members (id)
);
ALTER TABLE public.lost_items ENABLE ROW LEVEL SECURITY;
CREATE POLICY "lost items are public" ON public.lost_items FOR SELECT USING (TRUE);
