-- mutant: R19-user-tiers-definer-view
-- rules: R19
-- bug: the view was recreated without security_invoker, so it runs with its owner's rights and bypasses profiles' row rules.
create or replace view passport.user_tiers with (security_invoker = false) as
  select p.user_id, p.points,
         case when p.points >= 1000 then 'gold' when p.points >= 300 then 'silver' else 'bronze' end as tier
    from passport.profiles p;
