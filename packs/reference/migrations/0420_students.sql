-- Student records, change requests, identity conflicts and the person model (spec §2, §4.2;
-- rules 17 and 18).
--
-- Person model: a person is a student record; person_id = student_records.id. A signed-in caller
-- is the person whose record's e-mail equals (case-insensitive, trimmed) the e-mail of their
-- auth identity in auth.users — which no API caller can edit. my_person_id() is that lookup,
-- a definer helper, so row rules that need "who is the caller" never depend on the row rules
-- of student_records or users (rule 17). No session, no auth e-mail or no matching record:
-- null (fails closed).
create table public.student_records (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  student_id text not null,
  full_name text not null,
  year integer,
  major text
);
create unique index student_records_email_key on public.student_records (lower(trim(email)));

create table public.student_change_requests (
  id uuid primary key default gen_random_uuid(),
  student_record_id uuid not null references public.student_records (id) on delete cascade,
  field text not null,
  requested_value text,
  status text not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
  admin_note text,
  applied_value text,
  created_at timestamptz not null default now()
);

create table public.identity_conflicts (
  id uuid primary key default gen_random_uuid(),
  person_id uuid not null references public.student_records (id) on delete cascade,
  kind text not null,
  detail text
);

create or replace function public.my_person_id() returns uuid
language sql stable security definer set search_path = ''
as $$
  select s.id
    from public.student_records s
    join auth.users a on lower(trim(s.email)) = lower(trim(a.email))
   where a.id = auth.uid()
$$;

-- The caller's own record and the outcomes of their own change requests, newest 10 (rule 18).
create or replace function public.get_my_student_record() returns jsonb
language sql stable security definer set search_path = ''
as $$
  select jsonb_build_object(
    'record', (
      select jsonb_build_object('id', s.id, 'email', s.email, 'student_id', s.student_id, 'full_name', s.full_name, 'year', s.year, 'major', s.major)
        from public.student_records s where s.id = public.my_person_id()),
    'requests', coalesce((
      select jsonb_agg(jsonb_build_object('id', q.id, 'field', q.field, 'requested_value', q.requested_value, 'status', q.status,
                                          'admin_note', q.admin_note, 'applied_value', q.applied_value)
                       order by q.created_at desc, q.id desc)
        from (select c.* from public.student_change_requests c
               where c.student_record_id = public.my_person_id()
               order by c.created_at desc, c.id desc limit 10) q), '[]'::jsonb)
  )
$$;

revoke execute on function public.my_person_id(), public.get_my_student_record() from public, anon, authenticated;
grant execute on function public.my_person_id() to anon, authenticated;
grant execute on function public.get_my_student_record() to authenticated;

-- Rule 16: explicit grants. student_records and student_change_requests are admin-only tables.
revoke all on table public.student_records, public.student_change_requests, public.identity_conflicts from anon, authenticated;
grant select on table public.student_records to authenticated;
grant select, insert, update, delete on table public.student_change_requests to authenticated;
grant select on table public.identity_conflicts to authenticated;

alter table public.student_records enable row level security;
alter table public.student_change_requests enable row level security;
alter table public.identity_conflicts enable row level security;

create policy student_records_admin_read on public.student_records for select to authenticated
  using (public.current_user_is_admin());

create policy student_change_requests_admin_read on public.student_change_requests for select to authenticated
  using (public.current_user_is_admin());
create policy student_change_requests_admin_insert on public.student_change_requests for insert to authenticated
  with check (public.current_user_is_admin());
create policy student_change_requests_admin_update on public.student_change_requests for update to authenticated
  using (public.current_user_is_admin()) with check (public.current_user_is_admin());
create policy student_change_requests_admin_delete on public.student_change_requests for delete to authenticated
  using (public.current_user_is_admin());

-- Rule 17: admins, and the person whose record it is — through the definer helper.
create policy identity_conflicts_read on public.identity_conflicts for select to authenticated
  using (public.current_user_is_admin() or person_id = public.my_person_id());
