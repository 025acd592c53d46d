-- mutant: R14-guest-lookup-case-sensitive
-- rules: R14
-- bug: the guest lookup trims but compares case-sensitively, so a ticket id typed in another case is not found.
-- in 0300_pr_tickets.sql replace:
    and lower(btrim(t.id, E' \t\r\n')) = lower(btrim(p_id, E' \t\r\n'))
-- with:
    and btrim(t.id, E' \t\r\n') = btrim(p_id, E' \t\r\n')
-- end
