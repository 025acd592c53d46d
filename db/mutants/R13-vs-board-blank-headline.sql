-- mutant: R13-vs-board-blank-headline
-- rules: R13
-- bug: the board accepts any non-null headline, so a ticket published with a blank title shows up.
create or replace function private.vs_on_board(p_ticket public.vs_tickets) returns boolean
language sql stable security definer set search_path = ''
as $$
  select p_ticket.deleted_at is null and p_ticket.is_public
    and p_ticket.public_title is not null
    and private.vs_category_public(p_ticket.category)
$$;
