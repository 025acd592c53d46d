-- Projects, their documents and files, and professors' sign requests.

create table public.projects (
  id         uuid primary key default gen_random_uuid(),
  title      text not null,
  owner_id   uuid not null references public.users (id) on delete restrict,
  created_at timestamptz not null default now(),
  constraint projects_title_length check (char_length(btrim(title)) between 3 and 200)
);

create table public.project_documents (
  id         uuid primary key default gen_random_uuid(),
  project_id uuid not null references public.projects (id) on delete cascade,
  title      text not null,
  version    integer not null default 1,
  created_at timestamptz not null default now(),
  constraint project_documents_version_unique unique (project_id, title, version),
  constraint project_documents_version_positive check (version >= 1),
  -- Lets project_files name the project and the document together.
  constraint project_documents_project_pair unique (project_id, id)
);

create table public.project_files (
  id           uuid primary key default gen_random_uuid(),
  project_id   uuid not null,
  document_id  uuid not null,
  storage_path text not null,
  uploaded_by  uuid not null references public.users (id) on delete restrict,
  signed       boolean not null default false,
  created_at   timestamptz not null default now(),
  constraint project_files_document_fkey foreign key (project_id, document_id)
    references public.project_documents (project_id, id) on delete cascade,
  constraint project_files_path_format check (storage_path ~ '^projects/[0-9a-f-]{36}/')
);

create table public.project_sign_requests (
  document_id  uuid not null references public.project_documents (id) on delete cascade,
  professor_id uuid not null references public.users (id) on delete restrict,
  requested_by uuid not null references public.users (id) on delete restrict,
  state        public.sign_request_state not null default 'requested',
  requested_at timestamptz not null default now(),
  answered_at  timestamptz,
  primary key (document_id, professor_id),
  constraint project_sign_requests_answer_agrees
    check ((state = 'requested') = (answered_at is null)),
  constraint project_sign_requests_answer_after_request
    check (answered_at is null or answered_at >= requested_at)
);

create table public.project_settings (
  id         boolean primary key default true,
  settings   jsonb not null default '{}'::jsonb,
  updated_at timestamptz not null default now(),
  constraint project_settings_singleton check (id),
  constraint project_settings_is_object check (jsonb_typeof(settings) = 'object')
);

alter table public.projects enable row level security;
alter table public.project_documents enable row level security;
alter table public.project_files enable row level security;
alter table public.project_sign_requests enable row level security;
alter table public.project_settings enable row level security;

-- Rule 10: the project tables are public to read.
create policy "projects are readable"
  on public.projects for select to anon, authenticated using (true);
create policy "project documents are readable"
  on public.project_documents for select to anon, authenticated using (true);
create policy "project files are readable"
  on public.project_files for select to anon, authenticated using (true);

create policy "project actors write projects"
  on public.projects for all to authenticated
  using ((select public.current_user_is_project_actor()))
  with check ((select public.current_user_is_project_actor()));
create policy "project actors write documents"
  on public.project_documents for all to authenticated
  using ((select public.current_user_is_project_actor()))
  with check ((select public.current_user_is_project_actor()));

-- A professor uploads the signed file for a document addressed to them.
create policy "professors upload signed files"
  on public.project_files for insert to authenticated
  with check (
    uploaded_by = (select auth.uid())
    and exists (select 1 from public.project_sign_requests r
                 where r.document_id = project_files.document_id
                   and r.professor_id = (select auth.uid()))
  );

create policy "project actors upload files"
  on public.project_files for insert to authenticated
  with check (uploaded_by = (select auth.uid()) and (select public.current_user_is_project_actor()));

create policy "sign requests visible to their parties"
  on public.project_sign_requests for select to authenticated
  using (professor_id = (select auth.uid()) or requested_by = (select auth.uid()));

create policy "project actors request signatures"
  on public.project_sign_requests for insert to authenticated
  with check (requested_by = (select auth.uid()) and (select public.current_user_is_project_actor()));

create policy "professors answer their sign requests"
  on public.project_sign_requests for update to authenticated
  using (professor_id = (select auth.uid()))
  with check (professor_id = (select auth.uid()));

revoke all on public.project_settings from anon;

create policy "staff read project settings"
  on public.project_settings for select to authenticated
  using ((select public.current_user_is_staff()));

create policy "admins change project settings"
  on public.project_settings for update to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

-- Rule 1: the professor answers; nothing else about the request changes.
create or replace function public.project_sign_requests_guard_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  allowed constant text[] := array['state', 'answered_at'];
begin
  if auth.uid() is null or public.current_user_is_admin() then
    return new;
  end if;
  if (to_jsonb(new) - allowed) is distinct from (to_jsonb(old) - allowed) then
    raise exception 'project_sign_requests: only the answer may change' using errcode = '42501';
  end if;
  if new.state is distinct from old.state then
    new.answered_at := case when new.state = 'requested' then null
                            else greatest(now(), old.requested_at) end;
  end if;
  return new;
end;
$$;

create or replace trigger project_sign_requests_guard_update
  before update on public.project_sign_requests
  for each row execute function public.project_sign_requests_guard_update();
