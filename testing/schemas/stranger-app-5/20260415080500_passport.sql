-- Passport: student profiles, tiers and an admin leaderboard.

create schema if not exists passport;
grant usage on schema passport to anon, authenticated, service_role;

create table passport.profiles (
  user_id uuid primary key references auth.users (id) on delete cascade,
  nickname text,
  points integer not null default 0 check (points >= 0),
  created_at timestamptz not null default now()
);

create table passport.activities (
  id bigint generated always as identity primary key,
  user_id uuid not null references passport.profiles (user_id) on delete cascade,
  points integer not null check (points between 0 and 1000),
  created_at timestamptz not null default now()
);

alter table passport.profiles enable row level security;
alter table passport.activities enable row level security;

create policy "passport profiles: owner or admins" on passport.profiles
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.current_user_is_admin()));
create policy "passport activities: owner or admins" on passport.activities
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.current_user_is_admin()));

grant select on passport.profiles, passport.activities to authenticated;
grant all on passport.profiles, passport.activities to service_role;

-- Rule 19: a view over a narrowed table runs with the invoker's rights.
create view passport.user_tiers
with (security_invoker = true) as
  select p.user_id,
         p.points,
         case when p.points >= 1000 then 'gold'
              when p.points >= 300 then 'silver'
              else 'bronze' end as tier
    from passport.profiles p;

grant select on passport.user_tiers to authenticated, service_role;

create or replace function passport.admin_leaderboard()
returns table (user_id uuid, nickname text, points integer)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if (select auth.uid()) is null or not public.current_user_is_admin() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    select p.user_id, p.nickname, p.points from passport.profiles p
     order by p.points desc, p.user_id limit 50;
end;
$$;

revoke execute on function passport.admin_leaderboard() from public;
grant execute on function passport.admin_leaderboard() to anon, authenticated;
