-- mutant: R20-leaderboard-null-role-fails-open
-- rules: R20
-- bug: the guard is "role not in (admins)", which is null for a caller with no session or no role, so they get the board.
-- in 0430_passport.sql replace:
  if not coalesce(public.current_user_is_admin(), false) then
-- with:
  if public.current_user_role() not in ('admin', 'dev') then
-- end
-- in 0430_passport.sql replace:
  return query
    select t.user_id, p.display_name, t.points, t.tier
      from passport.user_tiers t join passport.profiles p on p.user_id = t.user_id
     order by t.points desc, t.user_id
     limit 10;
end
$$;
-- with:
  return query select t.user_id, p.display_name, t.points, t.tier
    from passport.user_tiers t join passport.profiles p on p.user_id = t.user_id order by t.points desc, t.user_id limit 10;
end $$;
-- end
