ALTER TABLE public.members ENABLE ROW LEVEL SECURITY;

CREATE POLICY "members read themselves, officers read everyone" ON public.members
  FOR SELECT TO authenticated
  USING (id = auth.uid() OR app.is_officer());

CREATE POLICY "members edit themselves, the president edits anyone" ON public.members
  FOR UPDATE TO authenticated
  USING (id = auth.uid() OR app.is_president())
  WITH CHECK (id = auth.uid() OR app.is_president());
