-- mutant: R03-vs-remark-author-not-distinct
-- rules: R03
-- bug: the remark author is compared with <> instead of IS DISTINCT FROM: an appended remark with no "by" key passes the guard.
-- in 0200_vs.sql replace:
         or (e -> 'by') is distinct from to_jsonb(old.submitter_label)
-- with:
         or (e -> 'by') <> to_jsonb(old.submitter_label)
-- end
