-- VS functions. Definer functions bypass row security, so each re-applies the ticket's scope
-- (rule 9) and treats an unresolvable value as denied (rule 8).

create or replace function private.require_role()
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_role text := public.current_user_role();
begin
  if (select auth.uid()) is null or v_role is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return v_role;
end;
$$;

-- The student's raw report is never published verbatim, alone or inside other words.
create or replace function private.repeats_report(p_text text, p_report text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(btrim(p_report) <> '' and strpos(p_text, btrim(p_report)) > 0, false);
$$;

-- Lookup by id is a capability: exact equality on the uuid.
create or replace function public.get_vs_ticket_by_id(p_id uuid)
returns setof public.vs_tickets
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.public_ref, null::uuid as submitter_id, t.target_dept, t.status, t.category, t.title, t.body,
         t.is_public, t.public_title,
         null::uuid as duplicate_of,
         t.is_duplicate,
         '{}'::text[] as tags,
         coalesce((select jsonb_agg(r order by n) from jsonb_array_elements(t.remarks) with ordinality as x(r, n)
                    where jsonb_typeof(r) = 'object'
                      and (r -> 'internal') is distinct from 'true'::jsonb
                      and r ->> 'vis' = 'ticket'), '[]'::jsonb) as remarks,
         t.deleted_at, t.created_at, t.updated_at
    from public.vs_tickets t
   where t.id = p_id and t.deleted_at is null;
$$;

create or replace function public.soft_delete_vs_ticket(p_id uuid)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ticket public.vs_tickets;
begin
  perform private.require_role();
  if not public.current_user_is_staff() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  -- the DELETE policy's predicate; a ticket out of scope is answered as one not found
  update public.vs_tickets t set deleted_at = now()
   where t.id = p_id and t.deleted_at is null and public.current_user_can_handle_vs(t.target_dept);
  return found;
end;
$$;

create or replace function public.find_similar_vs_tickets(p_id uuid)
returns table (id uuid, title text, status text, target_dept text, category bigint)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_ticket public.vs_tickets;
begin
  perform private.require_role();
  if not (public.current_user_role() in ('vs_staff', 'vp_admin', 'staff', 'dev', 'admin') or public.current_user_has_permission('vs')) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into v_ticket from public.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if not found or not public.current_user_can_handle_vs(v_ticket.target_dept) then
    return; -- nothing similar in the caller's scope
  end if;
  return query
    select t.id, t.title, t.status, t.target_dept::text, t.category
      from public.vs_tickets t
     where t.id <> v_ticket.id
       and t.deleted_at is null
       and t.duplicate_of is null
       and t.category is not distinct from v_ticket.category
       and public.current_user_can_handle_vs(t.target_dept)
     order by t.created_at desc, t.id
     limit 20;
end;
$$;

create or replace function public.merge_vs_tickets(p_primary uuid, p_duplicate uuid)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_primary public.vs_tickets;
  v_dup public.vs_tickets;
begin
  perform private.require_role();
  select * into v_primary from public.vs_tickets where id = p_primary and deleted_at is null;
  select * into v_dup from public.vs_tickets where id = p_duplicate and deleted_at is null;
  -- a missing ticket and one out of scope are refused alike: no existence oracle
  if v_primary.id is null or v_dup.id is null
     or not public.current_user_can_handle_vs(v_primary.target_dept)
     or not public.current_user_can_handle_vs(v_dup.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if v_primary.id = v_dup.id then
    raise exception 'SELF_MERGE' using errcode = 'P0001';
  end if;
  if v_primary.target_dept <> v_dup.target_dept then
    raise exception 'CROSS_DEPARTMENT_MERGE' using errcode = 'P0001';
  end if;
  if v_primary.duplicate_of is not null then
    raise exception 'ALREADY_DUPLICATE' using errcode = 'P0001';
  end if;
  update public.vs_tickets
     set duplicate_of = v_primary.id,
         status = 'merged',
         remarks = remarks
           || jsonb_build_array(
                jsonb_build_object('vis', 'internal', 'internal', true, 'by', 'staff',
                                   'text', 'merged into ' || v_primary.id::text),
                jsonb_build_object('vis', 'ticket', 'internal', false, 'by', 'staff',
                                   'text', 'This report was closed because the same problem was already reported.'))
   where id = v_dup.id;
  return true;
end;
$$;

create or replace function public.vs_transfer_dept(p_id uuid, p_dept text, p_remarks jsonb default '[]'::jsonb)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ticket public.vs_tickets;
begin
  perform private.require_role();
  select * into v_ticket from public.vs_tickets where id = p_id and deleted_at is null;
  if not found or not public.current_user_can_handle_vs(v_ticket.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if p_dept is null or btrim(p_dept) = '' then
    raise exception 'DESTINATION_REQUIRED' using errcode = '22023';
  end if;
  if exists (select 1 from jsonb_array_elements(coalesce(p_remarks, '[]'::jsonb)) e
              where jsonb_typeof(e) = 'object' and (e -> 'internal') is distinct from 'true'::jsonb
                and e::text ~* '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}') then
    raise exception 'a ticket-visible remark may not name a ticket' using errcode = 'P0001';
  end if;
  update public.vs_tickets
     set target_dept = btrim(p_dept),
         remarks = remarks || coalesce(p_remarks, '[]'::jsonb)
   where id = p_id;
  return true;
end;
$$;

create or replace function public.vs_set_public(p_id uuid, p_public boolean, p_title text default null)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ticket public.vs_tickets;
begin
  perform private.require_role();
  select * into v_ticket from public.vs_tickets where id = p_id and deleted_at is null;
  if not found or not (public.current_user_is_staff() and public.current_user_can_handle_vs(v_ticket.target_dept)) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if coalesce(p_public, false) then
    if not private.category_is_public(v_ticket.category) then
      raise exception 'CATEGORY_NOT_PUBLIC' using errcode = 'P0001';
    end if;
    if p_title is null or btrim(p_title) = '' then
      raise exception 'HEADLINE_REQUIRED' using errcode = 'P0001';
    end if;
    if private.repeats_report(p_title, v_ticket.body) then
      raise exception 'the headline repeats the report' using errcode = 'P0001';
    end if;
    update public.vs_tickets set is_public = true, public_title = btrim(p_title) where id = p_id;
  else
    update public.vs_tickets set is_public = false, public_title = null where id = p_id;
  end if;
  return true;
end;
$$;

create or replace function public.get_public_vs_board()
returns table (public_ref uuid, public_title text, category bigint, status text, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select t.public_ref, t.public_title, t.category, t.status, t.created_at
    from public.vs_tickets t
   where t.is_public
     and t.deleted_at is null
     and t.public_title is not null
     and private.category_is_public(t.category)
   order by t.created_at desc, t.public_ref;
$$;

create or replace function public.get_public_vs_problem(p_ref uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
           'public_ref', t.public_ref,
           'public_title', t.public_title,
           'category', t.category,
           'status', t.status,
           'comments', coalesce((select jsonb_agg(jsonb_build_object('body', c.body, 'at', c.created_at)
                                                  order by c.created_at, c.id)
                                   from public.vs_public_comments c where c.ticket_id = t.id), '[]'::jsonb))
    from public.vs_tickets t
   where t.public_ref = p_ref
     and t.is_public
     and t.deleted_at is null
     and t.public_title is not null
     and private.category_is_public(t.category);
$$;

create or replace function public.vs_post_public_comment(p_ref uuid, p_body text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ticket public.vs_tickets;
begin
  perform private.require_role();
  select * into v_ticket from public.vs_tickets t
   where t.public_ref = p_ref and t.is_public and t.deleted_at is null
     and t.public_title is not null and private.category_is_public(t.category);
  if not found then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  if p_body is null or btrim(p_body) = '' then
    raise exception 'EMPTY_COMMENT' using errcode = '22023';
  end if;
  if private.repeats_report(p_body, v_ticket.body) then
    raise exception 'the comment repeats the report' using errcode = 'P0001';
  end if;
  insert into public.vs_public_comments (ticket_id, author_id, body)
  values (v_ticket.id, (select auth.uid()), btrim(p_body));
  return true;
end;
$$;

-- Submitter tracking: holding a ticket's id (the capability), a merged ticket points at its
-- primary only where the primary is on the public board, by its public handle. Never its id.
create or replace function public.get_vs_linked_context(p_id uuid)
returns table (public_ref uuid, public_title text, status text)
language sql
stable
security definer
set search_path = ''
as $$
  select p.public_ref, p.public_title, p.status
    from public.vs_tickets d
    join public.vs_tickets p on p.id = d.duplicate_of
   where d.id = p_id
     and d.deleted_at is null
     and p.deleted_at is null
     and p.is_public
     and p.public_title is not null
     and private.category_is_public(p.category);
$$;

revoke execute on function private.require_role(), private.repeats_report(text, text) from public, anon, authenticated;
revoke execute on function public.soft_delete_vs_ticket(uuid), public.find_similar_vs_tickets(uuid),
  public.merge_vs_tickets(uuid, uuid), public.vs_transfer_dept(uuid, text, jsonb),
  public.vs_set_public(uuid, boolean, text), public.vs_post_public_comment(uuid, text)
  from public, anon;
grant execute on function public.soft_delete_vs_ticket(uuid), public.find_similar_vs_tickets(uuid),
  public.merge_vs_tickets(uuid, uuid), public.vs_transfer_dept(uuid, text, jsonb),
  public.vs_set_public(uuid, boolean, text), public.vs_post_public_comment(uuid, text)
  to authenticated;
grant execute on function public.get_vs_ticket_by_id(uuid), public.get_public_vs_board(),
  public.get_public_vs_problem(uuid), public.get_vs_linked_context(uuid) to anon, authenticated;
