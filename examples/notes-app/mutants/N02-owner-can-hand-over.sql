-- mutant: N02-owner-can-hand-over
-- rules: N02
-- bug: the update policy checks the old row only (WITH CHECK true), so an owner can move a note to someone else
drop policy notes_edit_own on public.notes;
create policy notes_edit_own on public.notes for update to authenticated using (owner_id = auth.uid()) with check (true);
