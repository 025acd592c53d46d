-- mutant: R12-vs-tracking-returns-tags
-- rules: R12
-- bug: the tracking read returns the staff tags instead of an empty array.
-- in 0200_vs.sql replace:
    null::text, t.is_duplicate, '{}'::text[], private.vs_submitter_remarks(t.remarks), t.report, t.updated_at
-- with:
    null::text, t.is_duplicate, t.tags, private.vs_submitter_remarks(t.remarks), t.report, t.updated_at
-- end
