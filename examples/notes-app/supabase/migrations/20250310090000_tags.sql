-- Tags: a shared vocabulary any signed-in user reads. Filing a note under a tag is personal:
-- note_tags rows are seen by whoever filed them only (others do not learn how you file their
-- public notes). A note may answer another (parent_id) and show one tag as its cover
-- (cover_tag_id), so notes and tags are joined twice: supabase-js names which,
-- `.select('*, tags!note_tags(*)')` (many-to-many through note_tags) or
-- `.select('*, cover:tags!cover_tag_id(*)')`.
create table public.tags (
  id uuid primary key default gen_random_uuid(),
  label text not null
);

alter table public.notes
  add column parent_id uuid references public.notes (id) on delete cascade,
  add column cover_tag_id uuid references public.tags (id) on delete set null;

create table public.note_tags (
  note_id uuid not null references public.notes (id) on delete cascade,
  tag_id uuid not null references public.tags (id) on delete cascade,
  filed_by uuid not null references auth.users (id) on delete cascade,
  primary key (note_id, tag_id, filed_by)
);

alter table public.tags enable row level security;
alter table public.note_tags enable row level security;
revoke all on table public.tags, public.note_tags from anon, authenticated;
grant select on table public.tags, public.note_tags to authenticated;

create policy tags_read on public.tags for select to authenticated using (true);
create policy note_tags_read_own on public.note_tags for select to authenticated
  using (filed_by = auth.uid());
