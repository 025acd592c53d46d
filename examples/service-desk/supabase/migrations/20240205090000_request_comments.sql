-- Conversation under a request, between the person who opened it and the desk.
create table public.request_comments (
  id bigint generated always as identity primary key,
  request_code text not null references public.service_requests (code) on delete cascade,
  author_id uuid not null references public.users (id) on delete cascade,
  body text not null check (btrim(body) <> ''),
  created_at timestamptz not null default now()
);
alter table public.request_comments enable row level security;

create policy request_comments_select on public.request_comments for select to authenticated
  using (exists (select 1 from public.service_requests r where r.code = request_code));
create policy request_comments_insert on public.request_comments for insert to authenticated
  with check (author_id = auth.uid() and exists (select 1 from public.service_requests r where r.code = request_code));
