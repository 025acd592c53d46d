-- Projects (spec §2; rule 10): projects, their documents and files are readable by anon and
-- signed-in callers; project actors write them; a professor uploads a signed file (an INSERT
-- allowed by row rules) only to a project with a pending sign request addressed to them.
-- Sign requests are visible to their actor and to the addressed professor only; project_settings
-- is staff-only and never readable by anon. Role lists match model/settings.ts (projects.*).

-- Policy helpers about the caller only (spec §4.2: callable by anon and authenticated).
create or replace function public.current_user_is_project_actor() returns boolean
language sql stable security definer set search_path = ''
as $$ select coalesce(public.current_user_role() in ('dev', 'staff', 'pr_staff', 'uni_staff', 'admin'), false) $$;

create table public.projects (
  id uuid primary key default gen_random_uuid(),
  title text not null,
  owner_id uuid references auth.users (id) on delete set null
);

create table public.project_documents (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references public.projects (id) on delete cascade,
  title text not null,
  body text
);

create table public.project_files (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references public.projects (id) on delete cascade,
  path text not null,
  kind text not null default 'file' check (kind in ('file', 'signed')),
  uploaded_by uuid references auth.users (id) on delete set null
);

create table public.project_sign_requests (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references public.projects (id) on delete cascade,
  actor_id uuid not null references auth.users (id) on delete cascade,
  professor_id uuid not null references auth.users (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'signed', 'declined'))
);

create table public.project_settings (
  key text primary key,
  value jsonb
);

-- Does a pending sign request on this project address the caller, a professor? Definer, so the
-- upload policy never depends on project_sign_requests' own row rules (rule 17).
create or replace function public.current_user_is_addressed_professor(p_project_id uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select coalesce(public.current_user_role() in ('sa_prof'), false)
     and exists (
       select 1 from public.project_sign_requests r
        where r.project_id = p_project_id and r.professor_id = auth.uid() and r.status = 'pending'
     )
$$;

revoke execute on function public.current_user_is_project_actor(), public.current_user_is_addressed_professor(uuid)
  from public, anon, authenticated;
grant execute on function public.current_user_is_project_actor(), public.current_user_is_addressed_professor(uuid)
  to anon, authenticated;

-- Rule 16: explicit grants to the intended roles only.
revoke all on table public.projects, public.project_documents, public.project_files,
  public.project_sign_requests, public.project_settings from anon, authenticated;
grant select on table public.projects, public.project_documents, public.project_files to anon, authenticated;
grant insert on table public.projects, public.project_documents, public.project_files to authenticated;
grant select, insert on table public.project_sign_requests to authenticated;
grant select on table public.project_settings to authenticated;

alter table public.projects enable row level security;
alter table public.project_documents enable row level security;
alter table public.project_files enable row level security;
alter table public.project_sign_requests enable row level security;
alter table public.project_settings enable row level security;

create policy projects_read on public.projects for select to anon, authenticated using (true);
create policy projects_actor_insert on public.projects for insert to authenticated
  with check (public.current_user_is_project_actor());

create policy project_documents_read on public.project_documents for select to anon, authenticated using (true);
create policy project_documents_actor_insert on public.project_documents for insert to authenticated
  with check (public.current_user_is_project_actor());

create policy project_files_read on public.project_files for select to anon, authenticated using (true);
create policy project_files_actor_insert on public.project_files for insert to authenticated
  with check (public.current_user_is_project_actor());
create policy project_files_professor_upload on public.project_files for insert to authenticated
  with check (kind = 'signed' and uploaded_by = auth.uid() and public.current_user_is_addressed_professor(project_id));

create policy project_sign_requests_read on public.project_sign_requests for select to authenticated
  using (actor_id = auth.uid() or professor_id = auth.uid());
create policy project_sign_requests_actor_insert on public.project_sign_requests for insert to authenticated
  with check (actor_id = auth.uid() and public.current_user_is_project_actor());

create policy project_settings_staff_read on public.project_settings for select to authenticated
  using (public.current_user_is_staff());
