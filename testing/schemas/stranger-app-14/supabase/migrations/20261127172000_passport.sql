-- Activity passport: profiles, earned points, and tiers.
create schema if not exists passport;
grant usage on schema passport to anon, authenticated, service_role;

create table passport.profiles (
  user_id uuid primary key references public.users (id) on delete cascade,
  nickname text check (char_length(nickname) between 1 and 40),
  faculty text,
  points integer not null default 0 check (points >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table passport.activities (
  id bigint generated always as identity primary key,
  user_id uuid not null references passport.profiles (user_id) on delete cascade,
  title text not null,
  points integer not null check (points between 0 and 1000),
  happened_on date not null default current_date
);

create table passport.tiers (
  name text primary key,
  min_points integer not null unique check (min_points >= 0)
);
insert into passport.tiers (name, min_points) values ('bronze', 0), ('silver', 100), ('gold', 300);

create trigger profiles_touch before update on passport.profiles
  for each row execute function app.touch_updated_at();

alter table passport.profiles enable row level security;
alter table passport.activities enable row level security;
alter table passport.tiers enable row level security;

create policy "owner or admin reads profile" on passport.profiles
  for select to authenticated
  using (user_id = (select auth.uid()) or (select app.is_admin()));
create policy "owner edits nickname" on passport.profiles
  for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));
create policy "admins manage profiles" on passport.profiles
  for all to authenticated using ((select app.is_admin())) with check ((select app.is_admin()));

create policy "owner or admin reads activities" on passport.activities
  for select to authenticated
  using (user_id = (select auth.uid()) or (select app.is_admin()));

create policy "tiers are public" on passport.tiers for select to anon, authenticated using (true);

create or replace function app.guard_passport_profile()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if not app.is_api_caller() or app.is_admin() then
    return new;
  end if;
  if (to_jsonb(new) - array['nickname', 'faculty', 'updated_at'])
     is distinct from (to_jsonb(old) - array['nickname', 'faculty', 'updated_at']) then
    raise exception 'points are earned, not edited' using errcode = '42501';
  end if;
  return new;
end;
$$;
create trigger profiles_guard before update on passport.profiles
  for each row execute function app.guard_passport_profile();

grant select, update on passport.profiles to authenticated;
grant select on passport.activities to authenticated;
grant select on passport.tiers to anon, authenticated;

create view passport.user_tiers
with (security_invoker = true) as
select p.user_id, p.nickname, p.points,
       (select t.name from passport.tiers t where t.min_points <= p.points
        order by t.min_points desc limit 1) as tier
from passport.profiles p;
grant select on passport.user_tiers to authenticated;

create or replace function passport.admin_leaderboard()
returns table (user_id uuid, nickname text, points integer, tier text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if (select auth.uid()) is null or not app.is_admin() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    select p.user_id, p.nickname, p.points,
           (select t.name from passport.tiers t where t.min_points <= p.points
            order by t.min_points desc limit 1)
    from passport.profiles p
    order by p.points desc, p.user_id
    limit 100;
end;
$$;
revoke execute on function passport.admin_leaderboard() from public;
grant execute on function passport.admin_leaderboard() to anon, authenticated;
