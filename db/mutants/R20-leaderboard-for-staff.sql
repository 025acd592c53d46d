-- mutant: R20-leaderboard-for-staff
-- rules: R20
-- bug: the guard checks the staff helper instead of the admin one, so handlers who are not admins read the board.
-- in 0430_passport.sql replace:
  if not coalesce(public.current_user_is_admin(), false) then
-- with:
  if not public.current_user_is_staff() then
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
