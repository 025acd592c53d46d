-- mutant: R03-vs-guard-allow-list-has-status
-- rules: R03, R01
-- bug: the submitter guard's allow-list grew status and tags ("submitters may reopen and tag their own tickets").
-- in 0200_vs.sql replace:
      array['remarks', 'updated_at', 'is_duplicate', 'public_ref'], 'vs_tickets', 'submitter');
-- with:
      array['remarks', 'status', 'tags', 'updated_at', 'is_duplicate', 'public_ref'], 'vs_tickets', 'submitter');
-- end
