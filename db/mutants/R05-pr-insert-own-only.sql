-- mutant: R05-pr-insert-own-only
-- rules: R05
-- bug: the insert rule was "fixed" to own tickets only after representation inserts failed, so on-behalf filing (return=minimal) is refused.
alter policy pr_tickets_insert on public.pr_tickets
  with check (deleted_at is null and status = 'open' and handler_note is null and (submitter_id = auth.uid() or public.current_user_is_pr_handler()));
