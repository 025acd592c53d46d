-- Ticket functions. Definer functions re-apply the table's scope (rule 9).

-- Guest lookup by exact id: the sanitized ticket (rule 12), or nothing.
create function public.get_vs_ticket_by_id(p_id uuid) returns jsonb
language sql stable security definer set search_path = public as $$
  select jsonb_build_object(
    'id', t.id, 'status', t.status, 'category', t.category, 'target_dept', t.target_dept,
    'title', t.title, 'submitter_label', t.submitter_label, 'is_public', t.is_public, 'public_title', t.public_title,
    'duplicate_of', null, 'is_duplicate', t.is_duplicate, 'tags', '[]'::jsonb,
    'remarks', coalesce((select jsonb_agg(e order by i) from jsonb_array_elements(t.remarks) with ordinality x(e, i)
                          where jsonb_typeof(e) = 'object' and e ->> 'vis' = 'ticket'
                            and (e -> 'internal') is distinct from 'true'::jsonb),
                 '[]'::jsonb),
    'created_at', t.created_at, 'updated_at', t.updated_at)
  from public.vs_tickets t
  where t.id = p_id and t.deleted_at is null
$$;

-- Guest PR lookup: case-insensitive equality after trimming both sides; never a pattern.
create function public.get_pr_ticket_by_id(p_id text)
returns table (id text, submitter_label text, brief text, file_url text, status text, created_at timestamptz)
language sql stable security definer set search_path = public as $$
  select t.id, t.submitter_label, t.brief, t.file_url, t.status, t.created_at from public.pr_tickets t
  where lower(btrim(t.id)) = lower(btrim(p_id)) and t.deleted_at is null
$$;

create function public.soft_delete_vs_ticket(p_id uuid) returns boolean
language plpgsql security definer set search_path = public as $$
declare
  n int;
begin
  if auth.uid() is null or public.current_user_role() is null or not public.current_user_is_staff() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  perform set_config('app.soft_delete', 'on', true);
  update public.vs_tickets t set deleted_at = now()
   where t.id = p_id and t.deleted_at is null and public.can_handle_vs_dept(t.target_dept);
  get diagnostics n = row_count;
  perform set_config('app.soft_delete', 'off', true);
  return n > 0;
end $$;

create function public.soft_delete_pr_ticket(p_id text) returns boolean
language plpgsql security definer set search_path = public as $$
declare
  n int;
begin
  if auth.uid() is null or public.current_user_role() is null or not public.current_user_is_staff()
     or not public.is_pr_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  update public.pr_tickets t set deleted_at = now()
   where t.id = p_id and t.deleted_at is null and public.is_pr_handler();
  get diagnostics n = row_count;
  return n > 0;
end $$;

-- Tickets like this one in the caller's scope: same category, not itself, live.
create function public.find_similar_vs_tickets(p_id uuid)
returns table (id uuid, title text, status text, target_dept text)
language plpgsql stable security definer set search_path = public as $$
begin
  if not public.is_vs_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  return query
    select o.id, o.title, o.status, o.target_dept
      from public.vs_tickets s join public.vs_tickets o
        on o.category = s.category and o.id <> s.id
     where s.id = p_id and s.deleted_at is null and o.deleted_at is null
       and public.can_handle_vs_dept(s.target_dept) and public.can_handle_vs_dept(o.target_dept);
end $$;

-- Merge a duplicate into its primary: staff-internal remark naming the primary, a generic one
-- for the submitter.
create function public.merge_vs_tickets(p_duplicate_id uuid, p_primary_id uuid) returns void
language plpgsql security definer set search_path = public as $$
declare
  d public.vs_tickets;
  p public.vs_tickets;
begin
  if not public.is_vs_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  select * into d from public.vs_tickets where id = p_duplicate_id and deleted_at is null for update;
  select * into p from public.vs_tickets where id = p_primary_id and deleted_at is null;
  if d.id is null or p.id is null or d.id = p.id then
    raise exception 'ticket not found' using errcode = 'P0001';
  end if;
  if not public.can_handle_vs_dept(d.target_dept) or not public.can_handle_vs_dept(p.target_dept)
     or d.target_dept is distinct from p.target_dept then
    raise exception 'NOT_AUTHORIZED: cross-department merge' using errcode = 'P0001';
  end if;
  update public.vs_tickets
     set duplicate_of = p.id, status = 'merged',
         remarks = remarks
           || jsonb_build_array(
                jsonb_build_object('vis', 'staff', 'by', 'system', 'internal', true,
                                   'text', 'merged into ' || p.id::text),
                jsonb_build_object('vis', 'ticket', 'by', 'system', 'internal', false,
                                   'text', 'This report was merged with an existing one.'))
   where id = d.id;
end $$;

create function public.vs_transfer_dept(p_id uuid, p_dept text, p_remarks jsonb default '[]'::jsonb)
returns void
language plpgsql security definer set search_path = public as $$
declare
  n int;
begin
  if p_dept is null or btrim(p_dept) = '' then
    raise exception 'destination department required' using errcode = 'P0001';
  end if;
  update public.vs_tickets t
     set target_dept = p_dept, remarks = t.remarks || coalesce(p_remarks, '[]'::jsonb)
   where t.id = p_id and t.deleted_at is null and public.can_handle_vs_dept(t.target_dept);
  get diagnostics n = row_count;
  if n = 0 then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
end $$;

-- The public board (rule 13): a category that does not resolve hides the ticket.
create function public.vs_board_visible(p_ticket public.vs_tickets) returns boolean
language sql stable security definer set search_path = public as $$
  select p_ticket.is_public and p_ticket.deleted_at is null
     and coalesce(btrim(p_ticket.public_title), '') <> ''
     and exists (select 1 from public.vs_categories c
                  where c.id = p_ticket.category and not c.is_confidential and c.public_eligible)
$$;

create function public.vs_public_handle(p_id uuid) returns text
language sql immutable as $$ select 'pub-' || left(md5(p_id::text), 16) $$;

create function public.vs_set_public(p_id uuid, p_public boolean, p_public_title text default null)
returns void
language plpgsql security definer set search_path = public as $$
declare
  t public.vs_tickets;
  c public.vs_categories;
begin
  select * into t from public.vs_tickets where id = p_id and deleted_at is null;
  if t.id is null or not public.can_handle_vs_dept(t.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  if p_public then
    select * into c from public.vs_categories where id = t.category;
    if c.id is null or c.is_confidential or not c.public_eligible then
      raise exception 'category cannot be published' using errcode = 'P0001';
    end if;
    -- Rule 13: a headline written by staff, now; never the student's report verbatim.
    if coalesce(btrim(p_public_title), '') = '' then
      raise exception 'a public headline is required' using errcode = 'P0001';
    end if;
    if btrim(t.body) <> '' and strpos(p_public_title, btrim(t.body)) > 0 then
      raise exception 'the headline repeats the report' using errcode = 'P0001';
    end if;
  end if;
  update public.vs_tickets
     set is_public = p_public, public_title = case when p_public then p_public_title else public_title end
   where id = p_id;
end $$;

create function public.get_public_vs_board()
returns table (handle text, public_title text, category text, status text, created_at timestamptz)
language sql stable security definer set search_path = public as $$
  select public.vs_public_handle(t.id), t.public_title, t.category, t.status, t.created_at
    from public.vs_tickets t
   where public.vs_board_visible(t)
   order by t.created_at desc
$$;

create function public.get_public_vs_problem(p_handle text) returns jsonb
language sql stable security definer set search_path = public as $$
  select jsonb_build_object(
    'handle', public.vs_public_handle(t.id), 'public_title', t.public_title,
    'category', t.category, 'status', t.status,
    'comments', coalesce((select jsonb_agg(jsonb_build_object('body', c.body, 'created_at', c.created_at)
                                           order by c.created_at)
                            from public.vs_public_comments c where c.ticket_id = t.id), '[]'::jsonb))
  from public.vs_tickets t
  where public.vs_public_handle(t.id) = p_handle and public.vs_board_visible(t)
$$;

create function public.vs_post_public_comment(p_handle text, p_body text) returns uuid
language plpgsql security definer set search_path = public as $$
declare
  t public.vs_tickets;
  new_id uuid;
begin
  if auth.uid() is null or public.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  if coalesce(btrim(p_body), '') = '' then
    raise exception 'a comment needs a body' using errcode = 'P0001';
  end if;
  select * into t from public.vs_tickets x where public.vs_public_handle(x.id) = p_handle;
  if t.id is null or not public.vs_board_visible(t) then
    raise exception 'not on the board' using errcode = 'P0001';
  end if;
  if btrim(t.body) <> '' and strpos(p_body, btrim(t.body)) > 0 then
    raise exception 'the comment repeats the report' using errcode = 'P0001';
  end if;
  insert into public.vs_public_comments (ticket_id, author_id, body)
  values (t.id, auth.uid(), p_body) returning id into new_id;
  return new_id;
end $$;

-- Submitter tracking (the id is the capability): the published ticket mine was merged into.
create function public.get_vs_linked_context(p_id uuid)
returns table (handle text, public_title text, status text)
language sql stable security definer set search_path = public as $$
  select public.vs_public_handle(p.id), p.public_title, p.status
    from public.vs_tickets t join public.vs_tickets p on p.id = t.duplicate_of
   where t.id = p_id and t.deleted_at is null and public.vs_board_visible(p)
$$;

revoke execute on function public.vs_board_visible(public.vs_tickets) from public, anon, authenticated;
revoke execute on function public.soft_delete_vs_ticket(uuid), public.soft_delete_pr_ticket(text),
  public.find_similar_vs_tickets(uuid), public.merge_vs_tickets(uuid, uuid),
  public.vs_transfer_dept(uuid, text, jsonb), public.vs_set_public(uuid, boolean, text),
  public.vs_post_public_comment(text, text) from public, anon;
grant execute on function public.soft_delete_vs_ticket(uuid), public.soft_delete_pr_ticket(text),
  public.find_similar_vs_tickets(uuid), public.merge_vs_tickets(uuid, uuid),
  public.vs_transfer_dept(uuid, text, jsonb), public.vs_set_public(uuid, boolean, text),
  public.vs_post_public_comment(text, text) to authenticated;
grant execute on function public.get_vs_ticket_by_id(uuid), public.get_pr_ticket_by_id(text),
  public.get_public_vs_board(), public.get_public_vs_problem(text), public.vs_public_handle(uuid),
  public.get_vs_linked_context(uuid) to anon, authenticated;
