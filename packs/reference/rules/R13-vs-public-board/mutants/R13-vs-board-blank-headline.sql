-- mutant: R13-vs-board-blank-headline
-- rules: R13
-- bug: the board accepts any non-null headline, so a ticket published with a blank title shows up.
-- in 0200_vs.sql replace:
    and p_ticket.public_title is not null and btrim(p_ticket.public_title) <> ''
-- with:
    and p_ticket.public_title is not null
-- end
