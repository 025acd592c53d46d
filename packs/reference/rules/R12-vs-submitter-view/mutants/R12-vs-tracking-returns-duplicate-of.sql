-- mutant: R12-vs-tracking-returns-duplicate-of
-- rules: R12
-- bug: the tracking read returns the real duplicate_of instead of null: the submitter learns another ticket's id.
-- in 0200_vs.sql replace:
    null::text, t.is_duplicate, '{}'::text[], private.vs_submitter_remarks(t.remarks), t.report, t.updated_at
-- with:
    t.duplicate_of, t.is_duplicate, '{}'::text[], private.vs_submitter_remarks(t.remarks), t.report, t.updated_at
-- end
