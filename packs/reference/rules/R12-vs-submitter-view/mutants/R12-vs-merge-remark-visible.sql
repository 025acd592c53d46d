-- mutant: R12-vs-merge-remark-visible
-- rules: R12
-- bug: the merge writes its "merged into <primary>" remark ticket-visible instead of internal, so the submitter of the duplicate reads the primary's id.
-- in 0200_vs.sql replace:
           jsonb_build_object('vis', 'staff', 'by', 'system', 'internal', true, 'text', 'merged into ' || p.id),
-- with:
           jsonb_build_object('vis', 'ticket', 'by', 'system', 'internal', false, 'text', 'merged into ' || p.id),
-- end
