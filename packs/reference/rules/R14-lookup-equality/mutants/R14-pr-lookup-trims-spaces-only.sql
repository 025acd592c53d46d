-- mutant: R14-pr-lookup-trims-spaces-only
-- rules: R14
-- bug: the guest lookup trims only spaces from the id it is given: an id pasted with a trailing CR LF or tab finds nothing.
-- in 0300_pr_tickets.sql replace:
    and lower(btrim(t.id, E' \t\r\n')) = lower(btrim(p_id, E' \t\r\n'))
-- with:
    and lower(btrim(t.id, E' \t\r\n')) = lower(btrim(p_id))
-- end
