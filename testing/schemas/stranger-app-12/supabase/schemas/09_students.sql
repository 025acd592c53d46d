-- Student records, change requests, people and identity conflicts.

create table public.people (
  id         bigint generated always as identity primary key,
  user_id    uuid unique references public.users (id) on delete set null,
  full_name  text not null,
  created_at timestamptz not null default now()
);

alter table public.people enable row level security;

create or replace function public.my_person_id()
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select p.id from public.people p where p.user_id = auth.uid() and auth.uid() is not null;
$$;

create policy "people read themselves"
  on public.people for select to authenticated
  using (id = (select public.my_person_id()));

create policy "admins read people"
  on public.people for select to authenticated
  using ((select public.current_user_is_admin()));

create table public.identity_conflicts (
  id          bigint generated always as identity primary key,
  person_id   bigint not null references public.people (id) on delete cascade,
  other_id    bigint not null references public.people (id) on delete cascade,
  reason      text not null,
  details     jsonb not null default '{}'::jsonb,
  created_at  timestamptz not null default now(),
  resolved_at timestamptz,
  constraint identity_conflicts_distinct_people check (person_id <> other_id),
  constraint identity_conflicts_pair unique (person_id, other_id),
  constraint identity_conflicts_resolved_after check (resolved_at is null or resolved_at >= created_at),
  constraint identity_conflicts_details_object check (jsonb_typeof(details) = 'object')
);

alter table public.identity_conflicts enable row level security;

-- Rule 17.
create policy "people read their conflicts"
  on public.identity_conflicts for select to authenticated
  using (person_id = (select public.my_person_id()));

create policy "admins manage conflicts"
  on public.identity_conflicts for all to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

create table public.student_records (
  user_id     uuid primary key references public.users (id) on delete cascade,
  student_id  text not null,
  full_name   text not null,
  faculty     text not null,
  major       text,
  year        smallint not null,
  enrolled    daterange not null,
  updated_at  timestamptz not null default now(),
  constraint student_records_student_id_unique unique (student_id),
  constraint student_records_student_id_format check (student_id ~ '^[0-9]{9}-[0-9]$'),
  constraint student_records_year_range check (year between 1 and 8),
  constraint student_records_enrolled_bounded check (not isempty(enrolled) and not lower_inf(enrolled))
);

alter table public.student_records enable row level security;

create or replace trigger student_records_touch_updated_at
  before update on public.student_records
  for each row execute function public.touch_updated_at();

-- Students read but never write their record; the registrar's staff do.
create policy "students read their record"
  on public.student_records for select to authenticated
  using (user_id = (select auth.uid()));

create policy "university staff manage records"
  on public.student_records for all to authenticated
  using ((select public.current_user_role()) in ('uni_staff', 'admin', 'dev'))
  with check ((select public.current_user_role()) in ('uni_staff', 'admin', 'dev'));

create table public.student_change_requests (
  id            bigint generated always as identity primary key,
  user_id       uuid not null references public.student_records (user_id) on delete cascade,
  field         text not null,
  new_value     text not null,
  verdict       public.change_verdict not null default 'pending',
  admin_note    text,
  applied_value text,
  decided_by    uuid references public.users (id) on delete restrict,
  created_at    timestamptz not null default now(),
  decided_at    timestamptz,
  constraint student_change_requests_field check (field in ('full_name', 'major', 'faculty')),
  constraint student_change_requests_decision_agrees
    check ((verdict = 'pending') = (decided_at is null and decided_by is null)),
  constraint student_change_requests_applied_only_if_approved
    check (applied_value is null or verdict = 'approved'),
  constraint student_change_requests_decided_after check (decided_at is null or decided_at >= created_at)
);

-- One open request per student and field.
create unique index student_change_requests_one_open
  on public.student_change_requests (user_id, field) where verdict = 'pending';

alter table public.student_change_requests enable row level security;

-- Admin-only table (rule 18): students see outcomes through get_my_student_record.
create policy "admins manage change requests"
  on public.student_change_requests for all to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

create or replace function public.request_student_change(p_field text, p_value text)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id bigint;
begin
  if auth.uid() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  insert into public.student_change_requests (user_id, field, new_value)
  values (auth.uid(), p_field, p_value)
  returning id into v_id;
  return v_id;
end;
$$;

create or replace function public.get_my_student_record()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_record jsonb;
begin
  if auth.uid() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select to_jsonb(r) - 'updated_at' into v_record
    from public.student_records r where r.user_id = auth.uid();
  if v_record is null then
    return null;
  end if;
  return v_record || jsonb_build_object('change_requests', coalesce((
    select jsonb_agg(jsonb_build_object(
             'id', c.id, 'field', c.field, 'new_value', c.new_value, 'verdict', c.verdict,
             'admin_note', c.admin_note, 'applied_value', c.applied_value,
             'created_at', c.created_at, 'decided_at', c.decided_at) order by c.created_at desc, c.id desc)
      from (select * from public.student_change_requests c2
             where c2.user_id = auth.uid()
             order by c2.created_at desc, c2.id desc
             limit 10) c), '[]'::jsonb));
end;
$$;
