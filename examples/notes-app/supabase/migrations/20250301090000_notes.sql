-- Notes: each note has an owner; the owner reads and edits it, and any signed-in user reads a
-- note its owner made public. Anonymous visitors read nothing.
create table public.notes (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null references auth.users (id) on delete cascade,
  body text not null default '',
  is_public boolean not null default false
);

alter table public.notes enable row level security;
revoke all on table public.notes from anon;
grant select, insert, update, delete on table public.notes to authenticated;

create policy notes_read on public.notes for select to authenticated
  using (owner_id = auth.uid() or is_public);
create policy notes_write_own on public.notes for insert to authenticated
  with check (owner_id = auth.uid());
create policy notes_edit_own on public.notes for update to authenticated
  using (owner_id = auth.uid()) with check (owner_id = auth.uid());
create policy notes_delete_own on public.notes for delete to authenticated
  using (owner_id = auth.uid());
