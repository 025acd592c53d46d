-- mutant: R20-leaderboard-null-role-fails-open
-- rules: R20
-- bug: the guard is "role not in (admins)", which is null for a caller with no session or no role, so they get the board.
create or replace function passport.admin_leaderboard()
returns table (user_id uuid, display_name text, points integer, tier text)
language plpgsql stable security definer set search_path = ''
as $$
begin
  if public.current_user_role() not in ('admin', 'dev') then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  return query select t.user_id, p.display_name, t.points, t.tier
    from passport.user_tiers t join passport.profiles p on p.user_id = t.user_id order by t.points desc, t.user_id limit 10;
end $$;
