-- VS functions. Lookups return the table's own row type (setof vs_tickets), sanitized; the public
-- board goes by public_ref (a uuid), never by the serial id.

create function public.vs_category_public(p_category integer) returns boolean
language sql stable security definer set search_path = '' as $$
  -- rule 8: an unknown or missing category is confidential and not eligible
  select coalesce((select not c.is_confidential and c.public_eligible
                     from public.vs_categories c where c.id = p_category), false)
$$;

-- Rule 12's allow-list: no submitter id, no search vector; remarks that are not plain
-- ticket-visible objects (internal, or malformed) are left out, failing closed.
create function public.get_vs_ticket_by_id(p_id integer)
returns table (id integer, public_ref uuid, submitter_label text, subject text, body text,
               target_dept text, status public.vs_status, category integer, is_public boolean,
               public_title text, duplicate_of integer, is_duplicate boolean, tags text[],
               remarks jsonb, created_at timestamptz, updated_at timestamptz)
language sql stable security definer set search_path = '' as $$
  select t.id, t.public_ref, t.submitter_label, t.subject, t.body, t.target_dept, t.status,
         t.category, t.is_public, t.public_title, null::integer, t.is_duplicate, '{}'::text[],
         coalesce((select jsonb_agg(e order by i) from jsonb_array_elements(t.remarks)
                     with ordinality x(e, i)
                    where jsonb_typeof(e) = 'object' and e ->> 'vis' = 'ticket'
                      and e -> 'internal' is distinct from 'true'::jsonb), '[]'),
         t.created_at, t.updated_at
  from public.vs_tickets t
  where t.id = p_id and t.deleted_at is null
$$;

create function public.soft_delete_vs_ticket(p_id integer) returns void
language plpgsql security definer set search_path = '' as $$
declare
  t public.vs_tickets;
begin
  if public.current_user_role() is null or not public.current_user_is_staff() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into t from public.vs_tickets where id = p_id and deleted_at is null;
  if not found or not public.can_handle_vs_dept(t.target_dept) then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  perform set_config('app.guard_bypass', 'on', true);
  update public.vs_tickets set deleted_at = now() where id = p_id;
  perform set_config('app.guard_bypass', '', true);
end $$;

create function public.find_similar_vs_tickets(p_id integer)
returns table (id integer, subject text, status public.vs_status)
language plpgsql stable security definer set search_path = '' as $$
declare
  t public.vs_tickets;
begin
  if public.current_user_role() is null or not public.is_vs_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into t from public.vs_tickets v where v.id = p_id and v.deleted_at is null;
  if not found or not public.can_handle_vs_dept(t.target_dept) then
    return;
  end if;
  return query
    select v.id, v.subject, v.status from public.vs_tickets v
    where v.id <> t.id and v.deleted_at is null and v.category = t.category
      and public.can_handle_vs_dept(v.target_dept)
    order by v.id;
end $$;

create function public.merge_vs_tickets(p_primary integer, p_duplicate integer) returns void
language plpgsql security definer set search_path = '' as $$
declare
  a public.vs_tickets;
  d public.vs_tickets;
begin
  if public.current_user_role() is null or not public.is_vs_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into a from public.vs_tickets where id = p_primary and deleted_at is null;
  select * into d from public.vs_tickets where id = p_duplicate and deleted_at is null;
  if a.id is null or d.id is null
     or not public.can_handle_vs_dept(a.target_dept) or not public.can_handle_vs_dept(d.target_dept) then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  if a.id = d.id then
    raise exception 'cannot merge a ticket into itself' using errcode = '22023';
  end if;
  if a.target_dept <> d.target_dept then
    raise exception 'cross-department merge' using errcode = '42501';
  end if;
  if jsonb_array_length(d.remarks) + 2 > public.vs_remarks_cap() then
    raise exception 'vs_tickets: at most % remarks', public.vs_remarks_cap() using errcode = '42501';
  end if;
  perform set_config('app.guard_bypass', 'on', true);
  update public.vs_tickets
     set duplicate_of = a.id,
         status = 'closed',
         remarks = remarks
           || jsonb_build_array(
                jsonb_build_object('vis', 'staff', 'by', 'system', 'internal', true,
                                   'text', 'merged into VS-' || a.id),
                jsonb_build_object('vis', 'ticket', 'by', 'system', 'internal', false,
                                   'text', 'This report was closed as a duplicate of an existing one.'))
   where id = d.id;
  perform set_config('app.guard_bypass', '', true);
end $$;

create function public.vs_transfer_dept(p_id integer, p_dept text, p_remarks jsonb default '[]')
returns void
language plpgsql security definer set search_path = '' as $$
declare
  t public.vs_tickets;
begin
  if public.current_user_role() is null or not public.is_vs_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if p_dept is null or btrim(p_dept) = '' then
    raise exception 'a destination department is required' using errcode = '22023';
  end if;
  select * into t from public.vs_tickets where id = p_id and deleted_at is null;
  if not found or not public.can_handle_vs_dept(t.target_dept) then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  if jsonb_typeof(coalesce(p_remarks, '[]')) <> 'array' then
    raise exception 'p_remarks must be an array' using errcode = '22023';
  end if;
  -- the remark rules of the table's guard still apply (it runs: no bypass)
  update public.vs_tickets
     set target_dept = btrim(p_dept), remarks = remarks || coalesce(p_remarks, '[]')
   where id = p_id;
end $$;

create function public.vs_set_public(p_id integer, p_public boolean, p_title text default null)
returns void
language plpgsql security definer set search_path = '' as $$
declare
  t public.vs_tickets;
begin
  if public.current_user_role() is null or not public.current_user_is_staff() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into t from public.vs_tickets where id = p_id and deleted_at is null;
  if not found or not public.can_handle_vs_dept(t.target_dept) then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  if p_public and not public.vs_category_public(t.category) then
    raise exception 'category is not public' using errcode = '42501';
  end if;
  if p_public and nullif(btrim(p_title), '') is null then
    raise exception 'a headline is required' using errcode = '22023';
  end if;
  if p_public and strpos(p_title, btrim(t.body)) > 0 then  -- the report, or a headline holding it verbatim
    raise exception 'the report is not published verbatim' using errcode = '22023';
  end if;
  update public.vs_tickets
     set is_public = p_public,
         public_title = case when p_public then btrim(p_title) else public_title end
   where id = p_id;
end $$;

create function public.vs_public_ticket(p_ref uuid) returns public.vs_tickets
language sql stable security definer set search_path = '' as $$
  select v.* from public.vs_tickets v
  where v.public_ref = p_ref and v.is_public and v.deleted_at is null
    and public.vs_category_public(v.category)
$$;

create function public.vs_post_public_comment(p_ref uuid, p_body text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  t public.vs_tickets;
begin
  if (select auth.uid()) is null or public.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  t := public.vs_public_ticket(p_ref);
  if t.id is null then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  -- The raw report is never published verbatim: not as the comment, nor inside it.
  if nullif(btrim(p_body), '') is null or strpos(p_body, btrim(t.body)) > 0 then
    raise exception 'a comment must be new text' using errcode = '22023';
  end if;
  perform set_config('app.guard_bypass', 'on', true);
  update public.vs_tickets
     set public_comments = public_comments
           || jsonb_build_array(jsonb_build_object('body', btrim(p_body), 'at', now()))
   where id = t.id;
  perform set_config('app.guard_bypass', '', true);
end $$;

create function public.get_public_vs_board()
returns table (public_ref uuid, public_title text, category_name text, status public.vs_status,
               comment_count integer)
language sql stable security definer set search_path = '' as $$
  select v.public_ref, v.public_title, c.name, v.status, jsonb_array_length(v.public_comments)
  from public.vs_tickets v join public.vs_categories c on c.id = v.category
  where v.is_public and v.deleted_at is null and not c.is_confidential and c.public_eligible
  order by v.created_at desc, v.public_ref
$$;

create function public.get_public_vs_problem(p_ref uuid) returns jsonb
language sql stable security definer set search_path = '' as $$
  select case when t.id is null then null else
    jsonb_build_object('public_ref', t.public_ref, 'public_title', t.public_title,
                       'status', t.status, 'comments', t.public_comments) end
  from public.vs_public_ticket(p_ref) t
$$;

-- Submitter tracking: the primary of a merged ticket, only when it is on the public board.
create function public.get_vs_linked_context(p_id integer)
returns table (public_ref uuid, public_title text, status public.vs_status)
language sql stable security definer set search_path = '' as $$
  select p.public_ref, p.public_title, p.status
  from public.vs_tickets d join public.vs_tickets p on p.id = d.duplicate_of
  where d.id = p_id and d.deleted_at is null
    and p.is_public and p.deleted_at is null and nullif(btrim(p.public_title), '') is not null
    and public.vs_category_public(p.category)
$$;

grant execute on function public.get_vs_ticket_by_id(integer), public.get_public_vs_board(),
  public.get_public_vs_problem(uuid), public.get_vs_linked_context(integer) to anon, authenticated;
grant execute on function public.soft_delete_vs_ticket(integer),
  public.find_similar_vs_tickets(integer), public.merge_vs_tickets(integer, integer),
  public.vs_transfer_dept(integer, text, jsonb), public.vs_set_public(integer, boolean, text),
  public.vs_post_public_comment(uuid, text) to authenticated;
