-- Ticket functions called from the app: lookups by id, soft delete, merging, transfers, the board.

create or replace function public.get_vs_ticket_by_id(p_id bigint)
returns table (
  id bigint, target_dept text, status public.vs_status, category_id integer, subject text,
  is_public boolean, public_title text, duplicate_of bigint, is_duplicate boolean, tags text[],
  remarks jsonb, submitter_label text, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.target_dept, t.status, t.category_id, t.subject, t.is_public, t.public_title,
         null::bigint, t.is_duplicate, '{}'::text[],
         coalesce((select jsonb_agg(r) from jsonb_array_elements(t.remarks) r
                   where not coalesce((r ->> 'internal')::boolean, false)), '[]'::jsonb),
         t.submitter_label, t.created_at
  from public.vs_tickets t
  where t.id = p_id and t.deleted_at is null
$$;
grant execute on function public.get_vs_ticket_by_id(bigint) to anon, authenticated;

create or replace function public.get_pr_ticket_by_id(p_id text)
returns setof public.pr_tickets
language sql
stable
security definer
set search_path = ''
as $$
  select * from public.pr_tickets t
  where t.id ilike btrim(p_id) and t.deleted_at is null
  limit 1
$$;
grant execute on function public.get_pr_ticket_by_id(text) to anon, authenticated;

create or replace function public.soft_delete_vs_ticket(p_id bigint)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  dept text;
begin
  if public.current_user_role() is null or not public.current_user_is_staff() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select t.target_dept into dept from public.vs_tickets t
  where t.id = p_id and t.deleted_at is null and t.org_id = app.jwt_org_id();
  if not found or not app.can_handle_vs(dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.vs_tickets set deleted_at = now() where id = p_id;
end;
$$;

create or replace function public.soft_delete_pr_ticket(p_id text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if public.current_user_role() is null or not app.can_handle_pr() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.pr_tickets set deleted_at = now()
  where id = p_id and deleted_at is null and org_id = app.jwt_org_id();
  if not found then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
end;
$$;

revoke execute on function public.soft_delete_vs_ticket(bigint), public.soft_delete_pr_ticket(text) from public, anon;
grant execute on function public.soft_delete_vs_ticket(bigint), public.soft_delete_pr_ticket(text) to authenticated;

create or replace function public.find_similar_vs_tickets(p_id bigint)
returns table (id bigint, subject text, status public.vs_status, target_dept text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  base public.vs_tickets%rowtype;
begin
  select * into base from public.vs_tickets t
  where t.id = p_id and t.deleted_at is null and t.org_id = app.jwt_org_id();
  if not found or not app.can_handle_vs(base.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    select t.id, t.subject, t.status, t.target_dept
    from public.vs_tickets t
    where t.id <> base.id and t.deleted_at is null and t.org_id = base.org_id
      and app.can_handle_vs(t.target_dept)
      and (t.category_id is not distinct from base.category_id or t.subject ilike '%' || base.subject || '%')
    order by t.created_at desc
    limit 20;
end;
$$;

create or replace function public.merge_vs_tickets(p_primary bigint, p_duplicate bigint)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  primary_t public.vs_tickets%rowtype;
  dup_t public.vs_tickets%rowtype;
begin
  if public.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into primary_t from public.vs_tickets t
  where t.id = p_primary and t.deleted_at is null and t.org_id = app.jwt_org_id();
  select * into dup_t from public.vs_tickets t
  where t.id = p_duplicate and t.deleted_at is null and t.org_id = app.jwt_org_id();
  if primary_t.id is null or dup_t.id is null
     or not app.can_handle_vs(primary_t.target_dept) or not app.can_handle_vs(dup_t.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if primary_t.id = dup_t.id then
    raise exception 'a ticket cannot duplicate itself' using errcode = '22023';
  end if;
  if app.has_role('vp_admin') and not app.is_admin() and primary_t.target_dept <> dup_t.target_dept then
    raise exception 'tickets of different departments cannot be merged' using errcode = '42501';
  end if;
  update public.vs_tickets
  set duplicate_of = primary_t.id,
      status = 'closed',
      remarks = remarks
        || jsonb_build_array(
             jsonb_build_object('vis', 'staff', 'by', 'system', 'internal', true,
                                'text', format('merged into #%s', primary_t.id), 'at', now()),
             jsonb_build_object('vis', 'ticket', 'by', 'system', 'internal', false,
                                'text', 'This report was closed because the same problem is being handled in another ticket.',
                                'at', now()))
  where id = dup_t.id;
end;
$$;

create or replace function public.vs_transfer_dept(p_id bigint, p_dept text, p_remarks jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  dept text;
begin
  if public.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if p_dept is null or btrim(p_dept) = '' then
    raise exception 'a destination department is required' using errcode = '22023';
  end if;
  if p_remarks is not null and jsonb_typeof(p_remarks) <> 'array' then
    raise exception 'p_remarks must be an array' using errcode = '22023';
  end if;
  select t.target_dept into dept from public.vs_tickets t
  where t.id = p_id and t.deleted_at is null and t.org_id = app.jwt_org_id();
  if not found or not app.can_handle_vs(dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.vs_tickets
  set target_dept = btrim(p_dept), remarks = remarks || coalesce(p_remarks, '[]'::jsonb)
  where id = p_id;
end;
$$;

create or replace function public.vs_set_public(p_id bigint, p_public boolean, p_title text default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  t public.vs_tickets%rowtype;
begin
  if public.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into t from public.vs_tickets v
  where v.id = p_id and v.deleted_at is null and v.org_id = app.jwt_org_id();
  if not found or not app.can_handle_vs(t.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if p_public then
    if not app.vs_category_is_public(t.category_id) then
      raise exception 'this ticket''s category cannot be shown publicly' using errcode = '42501';
    end if;
    if nullif(btrim(coalesce(p_title, t.public_title)), '') is null then
      raise exception 'a public headline is required' using errcode = '22023';
    end if;
  end if;
  update public.vs_tickets
  set is_public = coalesce(p_public, false),
      public_title = coalesce(nullif(btrim(p_title), ''), public_title)
  where id = p_id;
end;
$$;

create or replace function public.vs_post_public_comment(p_id bigint, p_body text)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  new_id bigint;
begin
  if (select auth.uid()) is null or public.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if not app.vs_ticket_is_on_board(p_id) then
    raise exception 'ticket not found' using errcode = 'P0002';
  end if;
  insert into public.vs_public_comments (ticket_id, author_id, body)
  values (p_id, auth.uid(), p_body)
  returning id into new_id;
  return new_id;
end;
$$;

create or replace function public.get_public_vs_board()
returns table (id bigint, public_title text, status public.vs_status, category text, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.public_title, t.status, c.name, t.created_at
  from public.vs_tickets t
  join public.vs_categories c on c.id = t.category_id
  where app.vs_ticket_is_on_board(t.id)
  order by t.created_at desc
  limit 200
$$;

create or replace function public.get_public_vs_problem(p_id bigint)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', t.id, 'public_title', t.public_title, 'public_summary', t.public_summary,
    'status', t.status, 'category', c.name, 'created_at', t.created_at,
    'comments', coalesce((select jsonb_agg(jsonb_build_object('body', pc.body, 'created_at', pc.created_at)
                                           order by pc.created_at)
                          from public.vs_public_comments pc where pc.ticket_id = t.id), '[]'::jsonb))
  from public.vs_tickets t
  join public.vs_categories c on c.id = t.category_id
  where t.id = p_id and app.vs_ticket_is_on_board(t.id)
$$;

-- For a submitter tracking their ticket: whether it was folded into a public problem, and which.
create or replace function public.get_vs_linked_context(p_id bigint)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  t public.vs_tickets%rowtype;
begin
  select * into t from public.vs_tickets v where v.id = p_id and v.deleted_at is null;
  if not found or (t.submitter_id is distinct from (select auth.uid()) and not app.can_handle_vs(t.target_dept)) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return jsonb_build_object(
    'is_duplicate', t.is_duplicate,
    'public_problem', case
      when t.duplicate_of is not null and app.vs_ticket_is_on_board(t.duplicate_of)
        then public.get_public_vs_problem(t.duplicate_of)
      else null end);
end;
$$;

revoke execute on function
  public.find_similar_vs_tickets(bigint), public.merge_vs_tickets(bigint, bigint),
  public.vs_transfer_dept(bigint, text, jsonb), public.vs_set_public(bigint, boolean, text),
  public.vs_post_public_comment(bigint, text), public.get_vs_linked_context(bigint)
  from public, anon;
grant execute on function
  public.find_similar_vs_tickets(bigint), public.merge_vs_tickets(bigint, bigint),
  public.vs_transfer_dept(bigint, text, jsonb), public.vs_set_public(bigint, boolean, text),
  public.vs_post_public_comment(bigint, text), public.get_vs_linked_context(bigint)
  to authenticated;
grant execute on function public.get_public_vs_board(), public.get_public_vs_problem(bigint) to anon, authenticated;
