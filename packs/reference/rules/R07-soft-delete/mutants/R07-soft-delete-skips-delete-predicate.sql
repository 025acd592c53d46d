-- mutant: R07-soft-delete-skips-delete-predicate
-- rules: R07
-- bug: soft_delete_pr_ticket checks only that the caller is staff and does not re-check the DELETE rule (a PR handler), so vs_staff and vp_admin delete PR tickets.
-- in 0300_pr_tickets.sql replace:
  if not public.current_user_is_pr_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
-- with:
-- end
