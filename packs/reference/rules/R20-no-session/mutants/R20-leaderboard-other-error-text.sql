-- mutant: R20-leaderboard-other-error-text
-- rules: R20
-- bug: the leaderboard refuses with its own wording instead of the NOT_AUTHORIZED that rule 20 and §7 name, so clients that test for it treat the refusal as an outage.
-- in 0430_passport.sql replace:
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
-- with:
    raise exception 'forbidden: admins only' using errcode = 'P0001';
-- end
