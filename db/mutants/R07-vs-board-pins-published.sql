-- mutant: R07-vs-board-pins-published
-- rules: R07
-- bug: vs_set_public records each vetted publication in a pins table and the board lists pinned
--   published tickets without re-checking them, so a ticket published through the function and
--   soft-deleted afterwards stays on the public board (only a publish-then-delete sequence shows it).
create table private.vs_board_pins (ticket_id text primary key);
revoke all on table private.vs_board_pins from public, anon, authenticated;

create or replace function public.vs_set_public(p_id text, p_public boolean, p_title text default null) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  t public.vs_tickets;
begin
  if not public.current_user_is_vs_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  if p_public is null then raise exception 'publish: p_public is required' using errcode = 'P0001'; end if;
  select * into t from public.vs_tickets x where x.id = p_id and x.deleted_at is null and public.vs_in_scope(x.target_dept);
  if not found then raise exception 'publish: ticket not found' using errcode = 'P0001'; end if;
  perform set_config('app.vs_trusted', 'on', true);
  if p_public then
    if p_title is null or btrim(p_title) = '' then
      raise exception 'publish: a headline written by staff is required' using errcode = 'P0001';
    end if;
    if not private.vs_category_public(t.category) then
      raise exception 'publish: the category is not public' using errcode = 'P0001';
    end if;
    update public.vs_tickets x set is_public = true, public_title = p_title where x.id = t.id;
    insert into private.vs_board_pins (ticket_id) values (t.id) on conflict do nothing;
  else
    update public.vs_tickets x set is_public = false where x.id = t.id;
    delete from private.vs_board_pins b where b.ticket_id = t.id;
  end if;
  perform set_config('app.vs_trusted', '', true);
end
$$;

create or replace function public.get_public_vs_board()
returns table (public_ref text, public_title text, category text, status text, target_dept text)
language sql stable security definer set search_path = ''
as $$
  select t.public_ref, t.public_title, t.category, t.status, t.target_dept
  from public.vs_tickets t
  where private.vs_on_board(t)
     or (t.is_public and exists (select 1 from private.vs_board_pins b where b.ticket_id = t.id))
$$;
