-- mutant: R13-vs-unknown-confidential-flag-public
-- rules: R13
-- bug: an unknown is_confidential flag is coalesced to false, so a category whose flag was never set is treated as not confidential and its tickets reach the public board.
-- in 0200_vs.sql replace:
    where c.id = p_category and c.is_confidential is false and c.public_eligible is true)
-- with:
    where c.id = p_category and coalesce(c.is_confidential, false) = false and c.public_eligible is true)
-- end
