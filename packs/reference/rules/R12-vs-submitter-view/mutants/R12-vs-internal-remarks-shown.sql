-- mutant: R12-vs-internal-remarks-shown
-- rules: R12
-- bug: the submitter's remark filter keeps entries by vis only and ignores the internal flag, so id-bearing internal remarks leak.
-- in 0200_vs.sql replace:
    and (x.e -> 'internal') is distinct from 'true'::jsonb
-- with:
-- end
