-- Passport (activity passport) schema, exposed to the API next to public.

create schema if not exists passport;
grant usage on schema passport to anon, authenticated, service_role;

create table passport.profiles (
  user_id uuid primary key references auth.users (id) on delete cascade,
  nickname text check (char_length(nickname) <= 40),
  faculty text,
  points integer not null default 0 check (points >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table passport.activities (
  id bigint generated always as identity primary key,
  user_id uuid not null references passport.profiles (user_id) on delete cascade,
  code text not null,
  points integer not null check (points between 0 and 1000),
  created_at timestamptz not null default now(),
  unique (user_id, code)
);

create trigger passport_profiles_updated_at before update on passport.profiles
  for each row execute procedure extensions.moddatetime (updated_at);

alter table passport.profiles enable row level security;
alter table passport.activities enable row level security;

create policy "Owners read their passport" on passport.profiles
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.current_user_is_admin()));
create policy "Owners edit their passport nickname" on passport.profiles
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
create policy "Admins manage passports" on passport.profiles
  for all to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

create policy "Owners read their activities" on passport.activities
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.current_user_is_admin()));
create policy "Admins record activities" on passport.activities
  for all to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

create or replace function passport.guard_profile_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  allowed text[] := array['nickname', 'updated_at'];
begin
  if (select auth.uid()) is null or public.current_user_is_admin() then
    return new;
  end if;
  if (to_jsonb(new) - allowed) is distinct from (to_jsonb(old) - allowed) then
    raise exception 'only the nickname can be changed' using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger passport_profiles_guard before update on passport.profiles
  for each row execute procedure passport.guard_profile_update();

grant select, update on table passport.profiles to authenticated;
grant insert, delete on table passport.profiles to authenticated;
grant select, insert, update, delete on table passport.activities to authenticated;

-- The tier view keeps the caller's own row rules (security_invoker).
create view passport.user_tiers
with (security_invoker = true)
as
select p.user_id,
       p.nickname,
       p.points,
       case when p.points >= 500 then 'gold'
            when p.points >= 200 then 'silver'
            else 'bronze' end as tier
  from passport.profiles p;

grant select on passport.user_tiers to authenticated, service_role;
-- Server tools (service_role) manage passports too: public's default privileges do not reach this schema.
grant select, insert, update, delete on all tables in schema passport to service_role;

create or replace function passport.admin_leaderboard()
returns table (user_id uuid, nickname text, points integer, tier text)
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
    select t.user_id, t.nickname, t.points, t.tier
      from passport.user_tiers t
     order by t.points desc, t.user_id
     limit 100;
end;
$$;

revoke execute on function passport.admin_leaderboard() from public, anon;
grant execute on function passport.admin_leaderboard() to authenticated;
revoke execute on function passport.guard_profile_update() from public, anon, authenticated;
