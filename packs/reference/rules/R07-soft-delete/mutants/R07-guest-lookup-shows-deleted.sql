-- mutant: R07-guest-lookup-shows-deleted
-- rules: R07, R14
-- bug: the guest lookup forgets deleted_at is null (it is a definer function, so the SELECT rule's filter does not apply), and deleted tickets stay public.
-- in 0300_pr_tickets.sql replace:
  where t.deleted_at is null
    and lower(btrim(t.id, E' \t\r\n')) = lower(btrim(p_id, E' \t\r\n'))
-- with:
  where lower(btrim(t.id, E' \t\r\n')) = lower(btrim(p_id, E' \t\r\n'))
-- end
