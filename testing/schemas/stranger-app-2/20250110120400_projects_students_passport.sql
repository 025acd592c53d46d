-- Projects, student records, identity conflicts and the passport schema.

create table public.projects (
  id uuid primary key default gen_random_uuid(),
  title text not null,
  owner_id uuid references public.profiles (id) on delete set null,
  created_at timestamptz not null default now()
);
create table public.project_documents (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references public.projects (id) on delete cascade,
  title text not null default '',
  body text
);
create table public.project_files (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references public.projects (id) on delete cascade,
  path text not null,
  uploaded_by uuid references public.profiles (id) on delete set null,
  signed boolean not null default false
);
create table public.project_sign_requests (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references public.projects (id) on delete cascade,
  actor_id uuid not null references public.profiles (id) on delete cascade,
  professor_id uuid not null references public.profiles (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'signed', 'declined'))
);
create table public.project_settings (
  id boolean primary key default true check (id),
  settings jsonb not null default '{}'::jsonb
);

create function public.current_user_is_project_actor() returns boolean
language sql stable security definer set search_path = public as $$
  select public.current_user_is_staff() or coalesce(public.current_user_role() in ('uni_staff', 'dev'), false)
$$;

create function public.uploaded_by_me() returns trigger
language plpgsql as $$
begin
  if auth.uid() is not null then
    new.uploaded_by := auth.uid();
  end if;
  return new;
end $$;
create trigger project_files_uploader before insert on public.project_files
  for each row execute function public.uploaded_by_me();

alter table public.projects enable row level security;
alter table public.project_documents enable row level security;
alter table public.project_files enable row level security;
alter table public.project_sign_requests enable row level security;
alter table public.project_settings enable row level security;

create policy projects_read on public.projects for select to anon, authenticated using (true);
create policy projects_write on public.projects for all to authenticated
  using (public.current_user_is_project_actor()) with check (public.current_user_is_project_actor());
create policy project_documents_read on public.project_documents for select to anon, authenticated using (true);
create policy project_documents_write on public.project_documents for all to authenticated
  using (public.current_user_is_project_actor()) with check (public.current_user_is_project_actor());
create policy project_files_read on public.project_files for select to anon, authenticated using (true);
create policy project_files_actor on public.project_files for insert to authenticated
  with check (public.current_user_is_project_actor());
create policy project_files_professor on public.project_files for insert to authenticated
  with check (public.current_user_role() = 'sa_prof' and exists (
    select 1 from public.project_sign_requests r
     where r.project_id = project_files.project_id and r.professor_id = (select auth.uid())));
create policy project_sign_requests_read on public.project_sign_requests for select to authenticated
  using (actor_id = (select auth.uid()) or professor_id = (select auth.uid()));
create policy project_sign_requests_write on public.project_sign_requests for insert to authenticated
  with check (actor_id = (select auth.uid()) and public.current_user_is_project_actor());
create policy project_settings_staff on public.project_settings for all to authenticated
  using (public.current_user_is_staff()) with check (public.current_user_is_staff());

grant select on public.projects, public.project_documents, public.project_files to anon;
grant select, insert, update, delete on public.projects, public.project_documents, public.project_files,
  public.project_sign_requests, public.project_settings to authenticated;
grant all on public.projects, public.project_documents, public.project_files,
  public.project_sign_requests, public.project_settings to service_role;

-- People and identity conflicts.
create table public.people (
  id uuid primary key default gen_random_uuid(),
  user_id uuid unique references public.profiles (id) on delete set null,
  full_name text not null default ''
);
create table public.identity_conflicts (
  id uuid primary key default gen_random_uuid(),
  person_id uuid not null references public.people (id) on delete cascade,
  detail text not null default '',
  resolved_at timestamptz
);

create function public.my_person_id() returns uuid
language sql stable security definer set search_path = public as $$
  select p.id from public.people p where p.user_id = auth.uid()
$$;

alter table public.people enable row level security;
alter table public.identity_conflicts enable row level security;
create policy people_self_or_admin on public.people for select to authenticated
  using (user_id = (select auth.uid()) or public.current_user_is_admin());
create policy identity_conflicts_read on public.identity_conflicts for select to authenticated
  using (public.current_user_is_admin() or person_id = public.my_person_id());
create policy identity_conflicts_admin on public.identity_conflicts for all to authenticated
  using (public.current_user_is_admin()) with check (public.current_user_is_admin());
grant select on public.people to authenticated;
grant select, insert, update, delete on public.identity_conflicts to authenticated;
grant all on public.people, public.identity_conflicts to service_role;

-- Student records: change requests are admin-only; the student sees outcomes via the RPC.
create table public.student_records (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  student_no text not null,
  faculty text,
  year integer
);
create table public.student_change_requests (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  field text not null,
  requested_value text,
  status text not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
  verdict text,
  admin_note text,
  applied_value text,
  created_at timestamptz not null default now()
);
alter table public.student_records enable row level security;
alter table public.student_change_requests enable row level security;
create policy student_records_admin on public.student_records for all to authenticated
  using (public.current_user_is_admin()) with check (public.current_user_is_admin());
create policy student_change_requests_admin on public.student_change_requests for all to authenticated
  using (public.current_user_is_admin()) with check (public.current_user_is_admin());
grant select, insert, update, delete on public.student_records, public.student_change_requests to authenticated;
grant all on public.student_records, public.student_change_requests to service_role;

create function public.get_my_student_record() returns jsonb
language plpgsql stable security definer set search_path = public as $$
begin
  if auth.uid() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  return jsonb_build_object(
    'record', (select to_jsonb(r) from public.student_records r where r.user_id = auth.uid()),
    'requests', coalesce((
      select jsonb_agg(to_jsonb(x) order by x.created_at desc, x.id desc)
        from (select c.id, c.field, c.status, c.verdict, c.admin_note, c.applied_value, c.created_at
                from public.student_change_requests c
               where c.user_id = auth.uid()
               order by c.created_at desc, c.id desc limit 10) x), '[]'::jsonb));
end $$;

revoke execute on function public.get_my_student_record(), public.my_person_id(),
  public.current_user_is_project_actor() from public, anon;
grant execute on function public.get_my_student_record(), public.my_person_id() to authenticated;
grant execute on function public.current_user_is_project_actor() to anon, authenticated;
revoke execute on function public.uploaded_by_me() from public, anon, authenticated;

-- Passport: student activity profiles and tiers.
create schema passport;
grant usage on schema passport to anon, authenticated, service_role;

create table passport.profiles (
  user_id uuid primary key references auth.users (id) on delete cascade,
  handle text not null,
  points integer not null default 0 check (points >= 0),
  updated_at timestamptz not null default now()
);
create unique index passport_profiles_handle on passport.profiles (lower(handle));

alter table passport.profiles enable row level security;
create policy passport_profiles_owner_or_admin on passport.profiles for select to authenticated
  using (user_id = (select auth.uid()) or public.current_user_is_admin());
create policy passport_profiles_owner_update on passport.profiles for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
grant select, update (handle) on passport.profiles to authenticated;
grant all on passport.profiles to service_role;

create view passport.user_tiers with (security_invoker = true) as
  select p.user_id, p.points,
         case when p.points >= 1000 then 'gold' when p.points >= 300 then 'silver' else 'bronze' end as tier
    from passport.profiles p;
grant select on passport.user_tiers to authenticated, service_role;

create function passport.admin_leaderboard()
returns table (user_id uuid, handle text, points integer)
language plpgsql stable security definer set search_path = public, passport as $$
begin
  if auth.uid() is null or not public.current_user_is_admin() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  return query select p.user_id, p.handle, p.points from passport.profiles p order by p.points desc, p.user_id limit 20;
end $$;
-- Callable by anyone: the body answers NOT_AUTHORIZED to every caller that is not an admin (rule 20).
grant execute on function passport.admin_leaderboard() to anon, authenticated, service_role;
