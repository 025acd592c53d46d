-- Student records and change requests, identity conflicts, the passport.

create table app.student_records (
  student_id text primary key check (student_id ~ '^[0-9]{9}-[0-9]$'),
  member_id uuid not null unique references app.members (id) deferrable initially deferred,
  full_name text not null,
  faculty text,
  major text,
  year smallint check (year between 1 and 8),
  updated_at timestamptz not null default now()
);

create type app.request_verdict as enum ('pending', 'approved', 'rejected');

create table app.student_change_requests (
  student_id text not null references app.student_records (student_id) on delete cascade,
  request_no integer not null,
  field text not null check (field in ('full_name', 'faculty', 'major', 'year')),
  requested_value text not null,
  verdict app.request_verdict not null default 'pending',
  admin_note text,
  applied_value text,
  decided_by uuid references app.members (id) deferrable initially deferred,
  decided_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (student_id, request_no)
);

create function app.student_change_requests_fill() returns trigger
language plpgsql as $$
begin
  if new.request_no is null then
    select coalesce(max(r.request_no), 0) + 1 into new.request_no
      from app.student_change_requests r where r.student_id = new.student_id;
  end if;
  return new;
end;
$$;

create trigger student_change_requests_fill before insert on app.student_change_requests
  for each row execute function app.student_change_requests_fill();

alter table app.student_records enable row level security;
alter table app.student_change_requests enable row level security;

create policy student_records_admin on app.student_records for all to authenticated
  using (api.current_user_is_admin()) with check (api.current_user_is_admin());
create policy student_change_requests_admin on app.student_change_requests for all to authenticated
  using (api.current_user_is_admin()) with check (api.current_user_is_admin());

grant select, insert, update, delete on app.student_records, app.student_change_requests to authenticated;
grant all on app.student_records, app.student_change_requests to service_role;

-- Identity conflicts: a person's record is theirs to read; admins read all.
create table app.identity_conflicts (
  id bigint generated always as identity primary key,
  person_id uuid not null references app.members (id) deferrable initially deferred,
  source text not null,
  detail jsonb not null default '{}',
  resolved_at timestamptz,
  created_at timestamptz not null default now()
);

alter table app.identity_conflicts enable row level security;
create policy identity_conflicts_read on app.identity_conflicts for select to authenticated
  using (api.current_user_is_admin() or person_id = api.my_person_id());
create policy identity_conflicts_admin on app.identity_conflicts for all to authenticated
  using (api.current_user_is_admin()) with check (api.current_user_is_admin());
grant select, insert, update, delete on app.identity_conflicts to authenticated;
grant all on app.identity_conflicts to service_role;

-- Passport ------------------------------------------------------------------------------------------

create table app.passport_profiles (
  member_id uuid primary key references app.members (id) on delete cascade deferrable initially deferred,
  student_id text check (student_id ~ '^[0-9]{9}-[0-9]$'),
  nickname text,
  faculty text,
  points integer not null default 0 check (points >= 0),
  updated_at timestamptz not null default now()
);

create trigger passport_profiles_touch before update on app.passport_profiles
  for each row execute function app.touch_updated_at();

create table app.passport_tiers (
  tier app.slug primary key,
  points int4range not null,
  constraint passport_tiers_no_overlap exclude using gist (points with &&)
);

insert into app.passport_tiers (tier, points) values
  ('bronze', int4range(0, 100)),
  ('silver', int4range(100, 500)),
  ('gold', int4range(500, null));

alter table app.passport_profiles enable row level security;
alter table app.passport_tiers enable row level security;

create policy passport_profiles_owner on app.passport_profiles for select to authenticated
  using (member_id = auth.uid() or api.current_user_is_admin());
create policy passport_profiles_owner_edit on app.passport_profiles for update to authenticated
  using (member_id = auth.uid()) with check (member_id = auth.uid());
create policy passport_profiles_create on app.passport_profiles for insert to authenticated
  with check (member_id = auth.uid());
create policy passport_tiers_read on app.passport_tiers for select to anon, authenticated using (true);

-- an owner edits their nickname only; points are the admins'
create function app.passport_profiles_guard() returns trigger
language plpgsql as $$
declare
  candidate app.passport_profiles;
begin
  if auth.uid() is null or old.member_id is distinct from auth.uid() or api.current_user_is_admin() then
    return new;
  end if;
  candidate := new;
  candidate.nickname := old.nickname;
  candidate.updated_at := old.updated_at;
  if candidate is distinct from old then
    raise exception 'passport: only your nickname can be changed' using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger passport_profiles_guard before update on app.passport_profiles
  for each row execute function app.passport_profiles_guard();

grant select, insert, update on app.passport_profiles to authenticated;
grant select on app.passport_tiers to anon, authenticated;
grant all on app.passport_profiles, app.passport_tiers to service_role;
