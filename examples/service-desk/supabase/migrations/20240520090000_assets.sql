-- Equipment on loan, by asset tag.
create table public.assets (
  tag text primary key check (tag ~ '^[A-Z]{2}-[0-9]{4}$'),
  description text not null,
  holder_id uuid references public.users (id) on delete set null,
  unit text not null references public.units (code)
);
alter table public.assets enable row level security;
create policy assets_read on public.assets for select to authenticated
  using (holder_id = auth.uid() or internal.caller_is_agent());
