-- mutant: R14-soft-delete-like
-- rules: R14
-- bug: soft_delete_pr_ticket finds the ticket with like, so a handler passing '%' (or an id with _) deletes other tickets.
-- in 0300_pr_tickets.sql replace:
  update public.pr_tickets t set deleted_at = now() where t.id = p_id and t.deleted_at is null;
-- with:
  update public.pr_tickets t set deleted_at = now() where t.id like p_id and t.deleted_at is null;
-- end
