-- mutant: R14-guest-lookup-ilike
-- rules: R14
-- bug: the guest lookup matches with ilike to be case-insensitive, so % and _ in the key are wildcards and '%' returns every live ticket.
-- in 0300_pr_tickets.sql replace:
    and lower(btrim(t.id, E' \t\r\n')) = lower(btrim(p_id, E' \t\r\n'))
-- with:
    and btrim(t.id, E' \t\r\n') ilike btrim(p_id, E' \t\r\n')
-- end
