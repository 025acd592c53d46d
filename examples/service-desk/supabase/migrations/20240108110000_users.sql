-- The desk's own profile of every signed-up person (auth.users holds the credentials).
create table public.users (
  id uuid primary key references auth.users (id) on delete cascade,
  email text not null,
  full_name text,
  role text not null default 'requester' check (role in ('requester', 'agent', 'lead', 'admin')),
  unit text references public.units (code),
  grants text[] not null default '{}',
  delegated_grants text[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index users_email_key on public.users (lower(email));
create trigger users_set_updated_at before update on public.users
  for each row execute function internal.set_updated_at();
