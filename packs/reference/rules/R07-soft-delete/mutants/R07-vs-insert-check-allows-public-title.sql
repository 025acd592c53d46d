-- mutant: R07-vs-insert-check-allows-public-title
-- rules: R07
-- bug: the insert check forgot `public_title is null`, so a submitter files a ticket with a staff headline already set.
-- in 0200_vs.sql replace:
    and not is_public and public_title is null and duplicate_of is null and status = 'open'
-- with:
    and not is_public and duplicate_of is null and status = 'open'
-- end
