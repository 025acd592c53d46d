-- VS ticket functions. Every definer function re-applies the table's scope (rule 9).

-- Rule 12: the columns anyone may read straight from the table. duplicate_of, tags and remarks
-- stay behind functions that sanitize them.
revoke select on public.vs_tickets from anon, authenticated;
grant select (
  id, number, submitter_id, submitter_label, target_dept, category_id, status, title, body,
  is_public, public_title, is_duplicate, created_at, closed_at, deleted_at, updated_at
) on public.vs_tickets to authenticated;

-- Whether a category is fit for the public board. An unknown or null category is not (rule 8).
create or replace function public.vs_category_is_public(p_category_id integer)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select not c.is_confidential and c.public_eligible
       from public.vs_categories c where c.id = p_category_id),
    false);
$$;

-- A submitter's view of a remark list: internal entries removed.
create or replace function public.vs_visible_remarks(p_remarks jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce(jsonb_agg(r order by n), '[]'::jsonb)
    from jsonb_array_elements(p_remarks) with ordinality as e(r, n)
   where jsonb_typeof(r) = 'object'
     and r ->> 'vis' = 'ticket'
     and coalesce(r ->> 'internal', 'false') = 'false';
$$;

-- Guest lookup by exact id; sanitized (duplicate_of null, tags empty, internal remarks removed).
create or replace function public.get_vs_ticket_by_id(p_id bigint)
returns table (
  id bigint, number integer, target_dept text, status public.vs_status, title text,
  is_public boolean, public_title text, duplicate_of bigint, is_duplicate boolean,
  tags text[], remarks jsonb, created_at timestamptz, closed_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.number, t.target_dept, t.status, t.title, t.is_public, t.public_title,
         null::bigint, t.is_duplicate, '{}'::text[], public.vs_visible_remarks(t.remarks),
         t.created_at, t.closed_at
    from public.vs_tickets t
   where t.id = p_id and t.deleted_at is null;
$$;

-- The signed-in submitter's own tickets, allow-listed.
create or replace function public.get_my_vs_tickets()
returns table (
  id bigint, number integer, target_dept text, status public.vs_status, title text, body text,
  is_public boolean, public_title text, is_duplicate boolean, remarks jsonb,
  created_at timestamptz, closed_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.number, t.target_dept, t.status, t.title, t.body, t.is_public, t.public_title,
         t.is_duplicate, public.vs_visible_remarks(t.remarks), t.created_at, t.closed_at
    from public.vs_tickets t
   where t.submitter_id = auth.uid() and auth.uid() is not null and t.deleted_at is null
   order by t.created_at desc;
$$;

-- A submitter appends a remark to their own ticket (rule 3).
create or replace function public.vs_add_remark(p_id bigint, p_text text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_label text;
begin
  if auth.uid() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if p_text is null or btrim(p_text) = '' then
    raise exception 'a remark needs text' using errcode = '22023';
  end if;
  select t.submitter_label into v_label
    from public.vs_tickets t
   where t.id = p_id and t.submitter_id = auth.uid() and t.deleted_at is null;
  if not found then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  update public.vs_tickets t
     set remarks = t.remarks || jsonb_build_array(jsonb_build_object(
           'vis', 'ticket', 'by', v_label, 'text', p_text, 'at', now()))
   where t.id = p_id;
end;
$$;

-- Rule 7: soft delete re-checks the DELETE scope: handlers of the ticket's department.
create or replace function public.soft_delete_vs_ticket(p_id bigint)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if public.current_user_role() is null or not public.current_user_is_staff() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.vs_tickets t
     set deleted_at = now()
   where t.id = p_id and t.deleted_at is null
     and public.current_user_can_handle_vs(t.target_dept);
  if not found then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
end;
$$;

create or replace function public.find_similar_vs_tickets(p_id bigint)
returns table (id bigint, number integer, target_dept text, title text, status public.vs_status,
               duplicate_of bigint, tags text[])
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_source public.vs_tickets;
begin
  select * into v_source from public.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if not found or not public.current_user_can_handle_vs(v_source.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    select t.id, t.number, t.target_dept, t.title, t.status, t.duplicate_of, t.tags
      from public.vs_tickets t
     where t.id <> v_source.id and t.deleted_at is null
       and public.current_user_can_handle_vs(t.target_dept)
       and (t.category_id is not distinct from v_source.category_id or t.tags && v_source.tags)
     order by t.created_at desc
     limit 20;
end;
$$;

-- Marks p_duplicate as a duplicate of p_primary; both in the caller's scope, same department.
create or replace function public.merge_vs_tickets(p_primary bigint, p_duplicate bigint)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_primary public.vs_tickets;
  v_duplicate public.vs_tickets;
begin
  select * into v_primary from public.vs_tickets t where t.id = p_primary and t.deleted_at is null;
  select * into v_duplicate from public.vs_tickets t where t.id = p_duplicate and t.deleted_at is null;
  if v_primary.id is null or v_duplicate.id is null or v_primary.id = v_duplicate.id then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  if not public.current_user_can_handle_vs(v_primary.target_dept)
     or not public.current_user_can_handle_vs(v_duplicate.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if v_primary.target_dept <> v_duplicate.target_dept then
    raise exception 'cross-department merge' using errcode = '42501';
  end if;
  update public.vs_tickets t
     set duplicate_of = v_primary.id,
         status = case when t.status in ('resolved', 'closed') then t.status else 'closed' end,
         remarks = t.remarks
           || jsonb_build_array(
                jsonb_build_object('vis', 'internal', 'internal', true, 'by', 'system',
                                   'text', format('Merged into #%s', v_primary.id), 'at', now()),
                jsonb_build_object('vis', 'ticket', 'by', 'system',
                                   'text', 'This report was closed as a duplicate of another report.',
                                   'at', now()))
   where t.id = v_duplicate.id;
end;
$$;

-- Rule 6: the one way a ticket leaves a department.
create or replace function public.vs_transfer_dept(p_id bigint, p_dept text, p_remarks jsonb default '[]'::jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ticket public.vs_tickets;
begin
  if p_dept is null or btrim(p_dept) = '' then
    raise exception 'a destination department is required' using errcode = '22023';
  end if;
  if not exists (select 1 from public.departments d where d.code = p_dept) then
    raise exception 'unknown department %', p_dept using errcode = '22023';
  end if;
  if p_remarks is null or jsonb_typeof(p_remarks) <> 'array' then
    raise exception 'p_remarks must be an array' using errcode = '22023';
  end if;
  select * into v_ticket from public.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if not found or not public.current_user_can_handle_vs(v_ticket.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.vs_tickets t
     set target_dept = p_dept, remarks = t.remarks || p_remarks
   where t.id = p_id;
end;
$$;

create or replace function public.vs_set_public(p_id bigint, p_public boolean, p_public_title text default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ticket public.vs_tickets;
begin
  select * into v_ticket from public.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if not found or not public.current_user_can_handle_vs(v_ticket.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if p_public and not public.vs_category_is_public(v_ticket.category_id) then
    raise exception 'this category cannot be published' using errcode = '42501';
  end if;
  if p_public and (coalesce(btrim(p_public_title), '') = '') then
    raise exception 'a public headline is required' using errcode = '22023';
  end if;
  update public.vs_tickets t
     set is_public = coalesce(p_public, false),
         public_title = case when p_public then btrim(p_public_title) else t.public_title end
   where t.id = p_id;
end;
$$;

-- What the board may show of a ticket (rule 13). Never the body.
create or replace function public.vs_is_on_board(p_id bigint)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select t.is_public and t.deleted_at is null and t.public_title is not null
            and public.vs_category_is_public(t.category_id)
       from public.vs_tickets t where t.id = p_id),
    false);
$$;

create or replace function public.get_public_vs_board()
returns table (id bigint, public_title text, target_dept text, status public.vs_status,
               created_at timestamptz, comment_count bigint)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.public_title, t.target_dept, t.status, t.created_at,
         (select count(*) from public.vs_public_comments c where c.ticket_id = t.id)
    from public.vs_tickets t
   where public.vs_is_on_board(t.id)
   order by t.created_at desc;
$$;

create or replace function public.get_public_vs_problem(p_id bigint)
returns table (id bigint, public_title text, target_dept text, status public.vs_status,
               created_at timestamptz, comments jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.public_title, t.target_dept, t.status, t.created_at,
         coalesce((select jsonb_agg(jsonb_build_object('seq', c.seq, 'body', c.body, 'at', c.created_at)
                                    order by c.seq)
                     from public.vs_public_comments c where c.ticket_id = t.id), '[]'::jsonb)
    from public.vs_tickets t
   where t.id = p_id and public.vs_is_on_board(t.id);
$$;

create or replace function public.vs_post_public_comment(p_id bigint, p_body text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_seq integer;
begin
  if auth.uid() is null or public.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if not public.vs_is_on_board(p_id) then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  -- Serialise per ticket so seq stays dense.
  perform 1 from public.vs_tickets t where t.id = p_id for update;
  select coalesce(max(c.seq), 0) + 1 into v_seq from public.vs_public_comments c where c.ticket_id = p_id;
  insert into public.vs_public_comments (ticket_id, seq, author_id, body)
  values (p_id, v_seq, auth.uid(), p_body);
  return v_seq;
end;
$$;

-- Linked tickets for the submitter's tracking page and the handlers' console.
create or replace function public.get_vs_linked_context(p_id bigint)
returns table (id bigint, public_title text, status public.vs_status, relation text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_ticket public.vs_tickets;
begin
  select * into v_ticket from public.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if not found then
    return;
  end if;
  if public.current_user_can_handle_vs(v_ticket.target_dept) then
    return query
      select t.id, coalesce(t.public_title, t.title), t.status,
             case when t.id = v_ticket.duplicate_of then 'primary' else 'duplicate' end
        from public.vs_tickets t
       where t.deleted_at is null
         and (t.id = v_ticket.duplicate_of or t.duplicate_of = v_ticket.id)
         and public.current_user_can_handle_vs(t.target_dept);
  elsif v_ticket.submitter_id = auth.uid() and v_ticket.duplicate_of is not null then
    -- The submitter learns only the public face of the primary, and only if it is on the board.
    return query
      select t.id, t.public_title, t.status, 'primary'::text
        from public.vs_tickets t
       where t.id = v_ticket.duplicate_of and public.vs_is_on_board(t.id);
  end if;
end;
$$;
