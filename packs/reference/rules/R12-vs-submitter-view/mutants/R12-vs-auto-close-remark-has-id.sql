-- mutant: R12-vs-auto-close-remark-has-id
-- rules: R12
-- bug: the auto-close remark the submitter sees names the primary ticket's id.
-- in 0200_vs.sql replace:
             'text', 'This report was closed because the same problem is already being handled.'))
-- with:
             'text', 'This report was closed as a duplicate of ' || p.id))
-- end
