-- Schema passport (spec §2, §4.2; rules 19, 20): student profiles with points, the tier view,
-- and the admin leaderboard.
--
-- Grants: Supabase's default privileges cover only public, so nothing in passport is granted by
-- default — except EXECUTE to PUBLIC on functions, which Postgres itself grants, and which is
-- revoked here. The API roles get USAGE on the schema; every object gets explicit grants,
-- service_role (server tools) included. Tier thresholds match model/settings.ts (passport.tiers).
create schema if not exists passport;
revoke all on schema passport from public;
grant usage on schema passport to anon, authenticated, service_role;

create table passport.profiles (
  user_id uuid primary key references auth.users (id) on delete cascade,
  display_name text,
  points integer not null default 0 check (points >= 0)
);

revoke all on table passport.profiles from public, anon, authenticated;
grant select on table passport.profiles to authenticated;
grant select, insert, update, delete on table passport.profiles to service_role;

alter table passport.profiles enable row level security;
create policy profiles_owner_or_admin_read on passport.profiles for select to authenticated
  using (user_id = auth.uid() or public.current_user_is_admin());

-- Rule 19: the view runs with the invoker's rights, so profiles' row rules apply through it.
create view passport.user_tiers with (security_invoker = true) as
  select p.user_id, p.points,
         case when p.points >= 1000 then 'gold' when p.points >= 300 then 'silver' else 'bronze' end as tier
    from passport.profiles p;

revoke all on table passport.user_tiers from public, anon, authenticated;
grant select on table passport.user_tiers to authenticated, service_role;

-- Rule 20: callable by anyone with the API key, so a caller with no session gets the
-- function's own NOT_AUTHORIZED (not a grant error); only admins get the board.
create or replace function passport.admin_leaderboard()
returns table (user_id uuid, display_name text, points integer, tier text)
language plpgsql stable security definer set search_path = ''
as $$
begin
  if not coalesce(public.current_user_is_admin(), false) then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  return query
    select t.user_id, p.display_name, t.points, t.tier
      from passport.user_tiers t join passport.profiles p on p.user_id = t.user_id
     order by t.points desc, t.user_id
     limit 10;
end
$$;

revoke execute on function passport.admin_leaderboard() from public, anon, authenticated;
grant execute on function passport.admin_leaderboard() to anon, authenticated, service_role;
