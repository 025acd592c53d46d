-- The university's units, as the directory lists them. Seeded: every desk user belongs to one.
create table public.units (
  code text primary key,
  label text not null
);
alter table public.units enable row level security;
create policy units_readable on public.units for select using (true);

insert into public.units (code, label) values
  ('IT', 'Information technology'), ('HR', 'Human resources'), ('FIN', 'Finance'),
  ('LIB', 'Library'), ('EST', 'Estates');
