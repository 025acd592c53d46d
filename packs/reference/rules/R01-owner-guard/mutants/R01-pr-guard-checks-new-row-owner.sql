-- mutant: R01-pr-guard-checks-new-row-owner
-- rules: R01
-- bug: the PR guard asks whether the new row belongs to the caller (new.submitter_id), so a submitter who hands the ticket to someone else skips the guard.
-- in 0300_pr_tickets.sql replace:
  if old.submitter_id = auth.uid()
-- with:
  if new.submitter_id = auth.uid()
-- end
