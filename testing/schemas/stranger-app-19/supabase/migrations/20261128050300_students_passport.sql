-- Campus desk, part 4: student records keyed by their student number (a natural key that
-- change requests and identity conflicts reference), and the passport.

create table public.student_records (
  student_id public.student_no primary key,
  user_id uuid unique references public.users (id) on delete set null,
  full_name text not null,
  faculty text,
  year smallint check (year between 1 and 8),
  email text check (email = lower(btrim(email))),
  created_at timestamptz not null default now()
);

create table public.student_change_requests (
  id bigint generated always as identity primary key,
  student_id public.student_no not null references public.student_records (student_id) on update cascade on delete cascade,
  field text not null check (field in ('full_name', 'faculty', 'year', 'email')),
  requested_value text,
  verdict public.change_verdict not null default 'pending',
  admin_note text,
  applied_value text,
  decided_by uuid references public.users (id),
  decided_at timestamptz,
  created_at timestamptz not null default now()
);

create table public.identity_conflicts (
  id bigint generated always as identity primary key,
  person_id public.student_no not null references public.student_records (student_id) on update cascade on delete cascade,
  detail text,
  created_at timestamptz not null default now()
);

-- The caller's person: their student record's number.
create function private.my_person_id() returns text
language sql stable security definer set search_path = '' as $$
  select r.student_id::text from public.student_records r where r.user_id = auth.uid()
$$;
create function public.my_person_id() returns text
language sql stable security definer set search_path = '' as $$
  select private.my_person_id()
$$;

alter table public.student_records enable row level security;
alter table public.student_change_requests enable row level security;
alter table public.identity_conflicts enable row level security;

create policy student_records_own on public.student_records for select to authenticated
  using (user_id = auth.uid());
create policy student_records_admin on public.student_records for all to authenticated
  using (private.is_admin()) with check (private.is_admin());

-- Admin-only: a student sees verdicts only through get_my_student_record (rule 18).
create policy student_change_requests_admin on public.student_change_requests for all to authenticated
  using (private.is_admin()) with check (private.is_admin());

create policy identity_conflicts_read on public.identity_conflicts for select to authenticated
  using (private.is_admin() or person_id = private.my_person_id());
create policy identity_conflicts_admin on public.identity_conflicts for all to authenticated
  using (private.is_admin()) with check (private.is_admin());

-- ---------------------------------------------------------------------------------------------
-- Passport: tiers as non-overlapping point ranges, profiles keyed by a handle.
-- ---------------------------------------------------------------------------------------------

create table passport.tiers (
  tier text primary key,
  points int4range not null,
  exclude using gist (points with &&)
);
insert into passport.tiers (tier, points) values
  ('bronze', int4range(0, 100)), ('silver', int4range(100, 500)), ('gold', int4range(500, null));

create table passport.profiles (
  handle public.username primary key,
  user_id uuid not null unique references public.users (id) on delete cascade,
  display_name text,
  faculty text,
  points int not null default 0 check (points >= 0),
  created_at timestamptz not null default now()
);

alter table passport.tiers enable row level security;
alter table passport.profiles enable row level security;

create policy tiers_read on passport.tiers for select to anon, authenticated using (true);
create policy profiles_owner on passport.profiles for select to authenticated
  using (user_id = auth.uid() or private.is_admin());
create policy profiles_owner_edit on passport.profiles for update to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy profiles_admin on passport.profiles for all to authenticated
  using (private.is_admin()) with check (private.is_admin());

create function private.guard_passport_profiles() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_allowed text[] := array['display_name', 'faculty'];
begin
  if auth.uid() is null or private.is_admin() then
    return new;
  end if;
  if old.user_id = auth.uid() and (to_jsonb(new) - v_allowed) is distinct from (to_jsonb(old) - v_allowed) then
    raise exception 'Only display_name and faculty may be changed on your passport' using errcode = '42501';
  end if;
  return new;
end $$;
create trigger profiles_guard before update on passport.profiles
  for each row execute function private.guard_passport_profiles();

-- Invoker's rights: a caller sees the tiers of the profiles they may read (rule 19).
create view passport.user_tiers with (security_invoker = true) as
  select p.handle, p.user_id, p.points, t.tier
  from passport.profiles p
  left join passport.tiers t on t.points @> p.points;

create function passport.admin_leaderboard()
returns table (handle text, display_name text, points int, tier text)
language plpgsql stable security definer set search_path = '' as $$
begin
  if auth.uid() is null or not private.is_admin() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    select p.handle::text, p.display_name, p.points, t.tier
    from passport.profiles p left join passport.tiers t on t.points @> p.points
    order by p.points desc, p.handle
    limit 10;
end $$;
