-- mutant: R03-vs-remark-author-case-insensitive
-- rules: R03
-- bug: the remark author is compared case-insensitively (lower() on both sides): a submitter's remark attributed to "STUDENT 42" instead of the label "Student 42" passes the guard; rule 3 wants the entry attributed to the submitter label as it is. Plain generation rarely writes a case-flipped author: the guided variant of R03.remark.by-case-only does.
-- in 0200_vs.sql replace:
         or (e -> 'by') is distinct from to_jsonb(old.submitter_label)
-- with:
         or lower(e ->> 'by') is distinct from lower(old.submitter_label)
-- end
