-- mutant: N01-notes-readable-by-all
-- rules: N01
-- bug: the read policy forgets the owner check, so every signed-in user reads private notes
drop policy notes_read on public.notes;
create policy notes_read on public.notes for select to authenticated using (true);
