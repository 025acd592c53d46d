-- mutant: R05-pr-insert-own-only
-- rules: R05
-- bug: the insert rule was "fixed" to own tickets only after representation inserts failed, so on-behalf filing (return=minimal) is refused.
-- in 0300_pr_tickets.sql replace:
         or public.current_user_is_pr_handler()
         or public.current_user_role() in ('uni_staff', 'sa_prof'))
-- with:
         or public.current_user_is_pr_handler())
-- end
