-- mutant: N05-filing-readable-by-all
-- rules: N05
-- bug: the filing policy forgets whose filing it is, so a public note embedding its tags (through note_tags) shows how everyone filed it
drop policy note_tags_read_own on public.note_tags;
create policy note_tags_read_own on public.note_tags for select to authenticated using (true);
