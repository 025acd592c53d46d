-- mutant: R07-vs-insert-check-allows-public-comments
-- rules: R07, R03
-- bug: the insert check forgot the empty public comment thread, so a submitter files a ticket with comments already on it.
-- in 0200_vs.sql replace:
    and tags = '{}' and remarks = '[]'::jsonb and public_comments = '[]'::jsonb);
-- with:
    and tags = '{}' and remarks = '[]'::jsonb);
-- end
