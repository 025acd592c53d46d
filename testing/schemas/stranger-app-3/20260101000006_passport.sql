-- passport: student profiles (owner or admin), a security_invoker tier view, an admin leaderboard.
create schema if not exists passport;
grant usage on schema passport to anon, authenticated, service_role;

create table passport.profiles (
  user_id uuid primary key references public.users (id) on delete cascade,
  handle text not null check (handle ~ '^[a-z0-9_]{3,30}$'),
  bio text,
  points integer not null default 0 check (points >= 0),
  updated_at timestamptz not null default now()
);
create unique index profiles_handle_key on passport.profiles (lower(handle));
create trigger profiles_updated_at before update on passport.profiles
  for each row execute function extensions.moddatetime(updated_at);

grant select, insert, update on passport.profiles to authenticated;
grant all on passport.profiles to service_role;
alter table passport.profiles enable row level security;

create policy profiles_read on passport.profiles for select to authenticated
  using (user_id = (select auth.uid()) or private.is_admin());
create policy profiles_insert on passport.profiles for insert to authenticated
  with check (user_id = (select auth.uid()) and points = 0);
create policy profiles_update on passport.profiles for update to authenticated
  using (private.is_admin()) with check (private.is_admin());

create view passport.user_tiers with (security_invoker = true) as
  select p.user_id,
         case when p.points >= 1000 then 'gold' when p.points >= 300 then 'silver' else 'bronze' end as tier
  from passport.profiles p;
grant select on passport.user_tiers to authenticated, service_role;

create function passport.admin_leaderboard()
returns table (user_id uuid, handle text, points integer)
language plpgsql stable security definer set search_path = ''
as $$
begin
  if not coalesce(private.is_admin(), false) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query select p.user_id, p.handle, p.points from passport.profiles p
               order by p.points desc, p.user_id limit 100;
end $$;
revoke execute on function passport.admin_leaderboard() from public;
grant execute on function passport.admin_leaderboard() to anon, authenticated, service_role;
