-- mutant: R19-user-tiers-definer-view
-- rules: R19
-- bug: the view was recreated without security_invoker, so it runs with its owner's rights and bypasses profiles' row rules.
-- in 0430_passport.sql replace:
create view passport.user_tiers with (security_invoker = true) as
-- with:
create view passport.user_tiers with (security_invoker = false) as
-- end
