-- Requests to the service desk. Codes are what people quote on the phone: SR-0042.
create table public.service_requests (
  code text primary key,
  opened_by uuid not null references public.users (id) on delete cascade,
  opener_label text not null,
  description text not null,
  attachment_url text,
  stage text not null default 'new' check (stage in ('new', 'triage', 'closed', 'refused')),
  agent_note text,
  removed_at timestamptz,
  opened_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger service_requests_set_updated_at before update on public.service_requests
  for each row execute function internal.set_updated_at();
