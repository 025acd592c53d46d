-- Signed-in users see and create Storage buckets through the API (supabase-swift's examples let
-- them manage every bucket); anon none.
create policy "Signed-in users see buckets" on storage.buckets for select to authenticated using (true);
create policy "Signed-in users create buckets" on storage.buckets for insert to authenticated with check (true);
