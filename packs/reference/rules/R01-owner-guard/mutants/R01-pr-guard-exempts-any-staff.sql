-- mutant: R01-pr-guard-exempts-any-staff
-- rules: R01
-- bug: the PR guard exempts every staff role (current_user_is_staff) instead of PR handlers, so a vs_staff or vp_admin submitter edits status and handler_note of their own ticket.
-- in 0300_pr_tickets.sql replace:
     and not public.current_user_is_pr_handler() then
-- with:
     and not public.current_user_is_staff() then
-- end
