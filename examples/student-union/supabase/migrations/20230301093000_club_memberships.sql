CREATE TABLE public.club_memberships (
  club_id BIGINT NOT NULL REFERENCES public.clubs (id) ON DELETE CASCADE,
  member_id UUID NOT NULL REFERENCES public.members (id) ON DELETE CASCADE,
  since DATE NOT NULL DEFAULT current_date,
  PRIMARY KEY (club_id, member_id)
);
ALTER TABLE public.club_memberships ENABLE ROW LEVEL SECURITY;
CREATE POLICY "own memberships" ON public.club_memberships FOR SELECT TO authenticated
  USING (member_id = auth.uid() OR app.is_officer());
CREATE POLICY "join a club" ON public.club_memberships FOR INSERT TO authenticated
  WITH CHECK (member_id = auth.uid());
CREATE POLICY "leave a club" ON public.club_memberships FOR DELETE TO authenticated
  USING (member_id = auth.uid());
