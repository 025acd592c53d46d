-- Help articles: public once published, written by agents.
create table public.kb_articles (
  id bigint generated always as identity primary key,
  slug text not null unique,
  title text not null,
  body text not null default '',
  published boolean not null default false,
  author_id uuid references public.users (id) on delete set null,
  created_at timestamptz not null default now()
);
alter table public.kb_articles enable row level security;
create policy kb_articles_read on public.kb_articles for select using (published or internal.caller_is_agent());
create policy kb_articles_write on public.kb_articles for all to authenticated
  using (internal.caller_is_agent()) with check (internal.caller_is_agent());
