-- Found by policyfuzz (R13, rules 13 and 14): the public board answered each ticket's id, and
-- get_vs_ticket_by_id takes that id as its capability, so anyone reading the board could fetch
-- the whole ticket. The board, its problem page, public comments and the linked context now name
-- a ticket by a public handle of its own, drawn at random and never the id.
alter table app.vs_tickets add column public_ref uuid not null default gen_random_uuid();
alter table app.vs_tickets add constraint vs_tickets_public_ref_key unique (public_ref);

-- Handlers may see the handle (appended: a view keeps its columns' order).
create or replace view api.vs_tickets with (security_invoker = true) as
select id, submitter_id, submitter_label, target_dept, category_id, status, body, is_public,
       public_title, duplicate_of, is_duplicate, tags, remarks, created_at, updated_at, public_ref
from app.vs_tickets
where private.can_handle_vs(target_dept);

drop function api.get_public_vs_board();
create function api.get_public_vs_board()
returns table (public_ref uuid, public_title text, category text, status text, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select t.public_ref, t.public_title, c.name, t.status, t.created_at
  from app.vs_tickets t
  join app.vs_categories c on c.id = t.category_id
  where private.vs_on_public_board(t.id)
  order by t.created_at desc
  limit 200;
$$;

drop function api.get_public_vs_problem(uuid);
create function api.get_public_vs_problem(p_ref uuid)
returns json
language sql
stable
security definer
set search_path = ''
as $$
  select json_build_object(
    'public_ref', t.public_ref, 'public_title', t.public_title, 'category', c.name,
    'status', t.status, 'created_at', t.created_at,
    'comments', coalesce((select json_agg(json_build_object('body', pc.body,
                                                             'created_at', pc.created_at)
                                          order by pc.created_at)
                          from app.vs_public_comments pc where pc.ticket_id = t.id), '[]'::json))
  from app.vs_tickets t
  join app.vs_categories c on c.id = t.category_id
  where t.public_ref = p_ref and private.vs_on_public_board(t.id);
$$;

drop function api.vs_post_public_comment(uuid, text);
create function api.vs_post_public_comment(p_ref uuid, p_body text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ticket_id uuid;
  v_id uuid;
begin
  if (select auth.uid()) is null or private.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select t.id into v_ticket_id from app.vs_tickets t where t.public_ref = p_ref;
  if v_ticket_id is null or not private.vs_on_public_board(v_ticket_id) then
    raise exception 'ticket not found' using errcode = 'P0002';
  end if;
  insert into app.vs_public_comments (ticket_id, author_id, body)
  values (v_ticket_id, (select auth.uid()), p_body)
  returning id into v_id;
  return v_id;
end;
$$;

create or replace function api.get_vs_linked_context(p_id uuid)
returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_ticket app.vs_tickets;
begin
  select * into v_ticket from app.vs_tickets where id = p_id and deleted_at is null;
  if v_ticket.id is null
     or not (private.is_vs_submitter(p_id) or private.can_handle_vs(v_ticket.target_dept)) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return json_build_object(
    'is_duplicate', v_ticket.is_duplicate,
    'public_problem', (select json_build_object('public_ref', p.public_ref,
                                                'public_title', p.public_title)
                       from app.vs_tickets p
                       where p.id = v_ticket.duplicate_of and private.vs_on_public_board(p.id)));
end;
$$;

revoke execute on function api.get_public_vs_board(), api.get_public_vs_problem(uuid),
  api.vs_post_public_comment(uuid, text) from public;
grant execute on function api.get_public_vs_board(), api.get_public_vs_problem(uuid)
  to anon, authenticated, service_role;
grant execute on function api.vs_post_public_comment(uuid, text) to authenticated, service_role;
