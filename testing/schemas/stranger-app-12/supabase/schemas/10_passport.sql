-- The activity passport, in its own API schema.

create schema if not exists passport;
grant usage on schema passport to anon, authenticated, service_role;

create table passport.profiles (
  user_id      uuid primary key references public.users (id) on delete cascade,
  student_id   text not null,
  display_name text not null,
  faculty      text,
  points       integer not null default 0,
  created_at   timestamptz not null default now(),
  constraint profiles_student_id_unique unique (student_id),
  constraint profiles_points_non_negative check (points >= 0)
);

create table passport.activities (
  id          bigint generated always as identity primary key,
  user_id     uuid not null references passport.profiles (user_id) on delete cascade,
  name        text not null,
  points      integer not null,
  held_during tstzrange not null,
  created_at  timestamptz not null default now(),
  constraint activities_points_range check (points between 0 and 100),
  constraint activities_during_bounded check (not isempty(held_during) and not lower_inf(held_during)),
  -- One activity at a time per student.
  constraint activities_no_overlap exclude using gist (user_id with =, held_during with &&)
);

create table passport.tiers (
  name       text primary key,
  min_points int4range not null,
  constraint tiers_no_overlap exclude using gist (min_points with &&)
);

insert into passport.tiers (name, min_points) values
  ('bronze', int4range(0, 100)), ('silver', int4range(100, 300)), ('gold', int4range(300, null));

create or replace function passport.is_admin()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select public.current_user_is_admin();
$$;

alter table passport.profiles enable row level security;
alter table passport.activities enable row level security;
alter table passport.tiers enable row level security;

-- Rule 19.
create policy "owners read their profile"
  on passport.profiles for select to authenticated
  using (user_id = (select auth.uid()));

create policy "admins read profiles"
  on passport.profiles for select to authenticated
  using ((select passport.is_admin()));

create policy "admins manage profiles"
  on passport.profiles for all to authenticated
  using ((select passport.is_admin()))
  with check ((select passport.is_admin()));

create policy "owners read their activities"
  on passport.activities for select to authenticated
  using (user_id = (select auth.uid()) or (select passport.is_admin()));

create policy "admins manage activities"
  on passport.activities for all to authenticated
  using ((select passport.is_admin()))
  with check ((select passport.is_admin()));

create policy "tiers are readable"
  on passport.tiers for select to anon, authenticated using (true);

create view passport.user_tiers
with (security_invoker = true)
as
  select p.user_id, p.display_name, p.points, t.name as tier
    from passport.profiles p
    join passport.tiers t on t.min_points @> p.points;

grant select on passport.profiles, passport.activities, passport.tiers, passport.user_tiers
  to authenticated;
grant select on passport.tiers to anon;
grant insert, update, delete on passport.profiles, passport.activities to authenticated;
grant all on all tables in schema passport to service_role;

create or replace function passport.admin_leaderboard()
returns table (user_id uuid, display_name text, points integer, tier text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if auth.uid() is null or not public.current_user_is_admin() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    select p.user_id, p.display_name, p.points, t.name
      from passport.profiles p
      join passport.tiers t on t.min_points @> p.points
     order by p.points desc, p.user_id
     limit 100;
end;
$$;
