-- Passport: profiles readable by the owner or admins, tiers through an invoker's-rights view.
create schema if not exists passport;
grant usage on schema passport to anon, authenticated, service_role;

create table passport.profiles (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  handle text not null unique,
  points integer not null default 0 check (points >= 0),
  created_at timestamptz not null default now()
);

alter table passport.profiles enable row level security;
create policy passport_profiles_read on passport.profiles for select to authenticated
  using (user_id = (select auth.uid()) or public.is_admin());
create policy passport_profiles_admin on passport.profiles for all to authenticated
  using (public.is_admin()) with check (public.is_admin());
grant select, insert, update, delete on passport.profiles to authenticated;
grant all on passport.profiles to service_role;

create view passport.user_tiers with (security_invoker = true) as
  select user_id, points,
         case when points >= 1000 then 'gold' when points >= 300 then 'silver' else 'bronze' end as tier
  from passport.profiles;
grant select on passport.user_tiers to authenticated, service_role;

create function passport.admin_leaderboard()
returns table (user_id uuid, handle text, points integer)
language plpgsql stable security definer set search_path = '' as $$
begin
  if (select auth.uid()) is null or not public.is_admin() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query select p.user_id, p.handle, p.points from passport.profiles p
               order by p.points desc, p.user_id limit 100;
end $$;
revoke execute on function passport.admin_leaderboard() from public;
grant execute on function passport.admin_leaderboard() to anon, authenticated, service_role;
