-- mutant: R07-vs-board-pins-published
-- rules: R07
-- bug: vs_set_public records each vetted publication in a pins table and the board lists pinned
--   published tickets without re-checking them, so a ticket published through the function and
--   soft-deleted afterwards stays on the public board (only a publish-then-delete sequence shows it).
-- in 0200_vs.sql replace:
-- Rule 13: publishing needs a staff headline and a public category (unknown category: refused).
-- with:
create table private.vs_board_pins (ticket_id text primary key);
revoke all on table private.vs_board_pins from public, anon, authenticated;

-- Rule 13: publishing needs a staff headline and a public category (unknown category: refused).
-- end
-- in 0200_vs.sql replace:
    update public.vs_tickets x set is_public = true, public_title = p_title where x.id = t.id;
-- with:
    update public.vs_tickets x set is_public = true, public_title = p_title where x.id = t.id;
    insert into private.vs_board_pins (ticket_id) values (t.id) on conflict do nothing;
-- end
-- in 0200_vs.sql replace:
    update public.vs_tickets x set is_public = false where x.id = t.id;
-- with:
    update public.vs_tickets x set is_public = false where x.id = t.id;
    delete from private.vs_board_pins b where b.ticket_id = t.id;
-- end
-- in 0200_vs.sql replace:
  from public.vs_tickets t where private.vs_on_board(t)
-- with:
  from public.vs_tickets t
  where private.vs_on_board(t)
     or (t.is_public and exists (select 1 from private.vs_board_pins b where b.ticket_id = t.id))
-- end
