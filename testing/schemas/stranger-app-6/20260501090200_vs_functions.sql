-- VS functions. Definer functions bypass row rules, so each re-applies the caller's scope (rule 9).

alter table private.vs_tickets
  add column public_ref text generated always as ('pub-' || substr(md5(id), 1, 16)) stored;
create unique index vs_tickets_public_ref_key on private.vs_tickets (public_ref);

create or replace view api.vs_tickets with (security_invoker = true) as
  select id, submitter_id, submitter_label, target_dept, status, category, subject, description,
         is_public, public_title, public_summary, public_comments, duplicate_of, is_duplicate,
         tags, remarks, timeline, deleted_at, created_at, updated_at, public_ref
  from private.vs_tickets;

create function private.not_authorized() returns void language plpgsql as $$
begin
  raise exception 'NOT_AUTHORIZED' using errcode = 'insufficient_privilege';
end $$;

-- Guest tracking by the exact id; sanitized (rule 12) and never a deleted ticket (rule 7).
create function api.get_vs_ticket_by_id(p_id text)
returns table (
  id text, public_ref text, status private.vs_status, category text, subject text,
  duplicate_of text, is_duplicate boolean, tags text[], remarks jsonb, created_at timestamptz
)
language sql stable security definer set search_path = '' as $$
  select t.id, t.public_ref, t.status, t.category, t.subject,
         null::text, t.is_duplicate, '{}'::text[],
         coalesce((select jsonb_agg(e order by i)
                   from jsonb_array_elements(t.remarks) with ordinality as r(e, i)
                   where jsonb_typeof(e) = 'object'
                     and e ->> 'vis' = 'ticket'
                     and coalesce(e ->> 'internal', 'false') = 'false'), '[]'::jsonb),
         t.created_at
  from private.vs_tickets t
  where t.id = p_id and t.deleted_at is null
$$;

create function api.soft_delete_vs_ticket(p_id text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  dept text;
begin
  if auth.uid() is null or api.current_user_role() is null or not api.current_user_is_staff() then
    perform private.not_authorized();
  end if;
  select t.target_dept into dept from private.vs_tickets t where t.id = p_id and t.deleted_at is null;
  -- the DELETE policy's predicate; a missing ticket and one out of scope answer alike
  if dept is null or not api.current_user_can_handle_vs(dept) then
    raise exception 'NOT_FOUND' using errcode = 'no_data_found';
  end if;
  perform set_config('app.soft_deleting', 'vs:' || p_id, true);
  update private.vs_tickets set deleted_at = now() where id = p_id;
  perform set_config('app.soft_deleting', '', true);
end $$;

create function api.find_similar_vs_tickets(p_id text)
returns table (id text, subject text, status private.vs_status, target_dept text, category text)
language plpgsql stable security definer set search_path = '' as $$
declare
  src private.vs_tickets;
begin
  if api.current_user_role() is null then
    perform private.not_authorized();
  end if;
  select * into src from private.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if src.id is null or not api.current_user_can_handle_vs(src.target_dept) then
    return;
  end if;
  return query
    select t.id, t.subject, t.status, t.target_dept::text, t.category
    from private.vs_tickets t
    where t.id <> src.id and t.deleted_at is null
      and t.category is not distinct from src.category
      and api.current_user_can_handle_vs(t.target_dept)
    order by t.created_at desc, t.id
    limit 20;
end $$;

create function api.merge_vs_tickets(p_duplicate text, p_primary text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  dup private.vs_tickets;
  prim private.vs_tickets;
begin
  if api.current_user_role() is null then
    perform private.not_authorized();
  end if;
  select * into dup from private.vs_tickets t where t.id = p_duplicate and t.deleted_at is null;
  select * into prim from private.vs_tickets t where t.id = p_primary and t.deleted_at is null;
  if dup.id is null or prim.id is null
     or not api.current_user_can_handle_vs(dup.target_dept)
     or not api.current_user_can_handle_vs(prim.target_dept) then
    raise exception 'NOT_FOUND' using errcode = 'no_data_found';
  end if;
  if dup.id = prim.id then
    raise exception 'a ticket cannot be merged into itself' using errcode = 'invalid_parameter_value';
  end if;
  if dup.target_dept <> prim.target_dept then
    raise exception 'cross-department merge is not allowed' using errcode = 'invalid_parameter_value';
  end if;
  update private.vs_tickets t
     set duplicate_of = prim.id,
         status = 'duplicate',
         remarks = t.remarks || jsonb_build_array(
           jsonb_build_object('vis', 'internal', 'internal', true, 'by', 'staff',
                              'text', 'merged into ' || prim.id),
           jsonb_build_object('vis', 'ticket', 'internal', false, 'by', 'staff',
                              'text', 'This report was closed as a duplicate of an existing report.'))
   where t.id = dup.id;
end $$;

create function api.vs_transfer_dept(p_id text, p_dept text, p_remarks jsonb default '[]')
returns void language plpgsql security definer set search_path = '' as $$
declare
  dept text;
begin
  if api.current_user_role() is null then
    perform private.not_authorized();
  end if;
  if p_dept is null or btrim(p_dept) = '' then
    raise exception 'a destination department is required' using errcode = 'invalid_parameter_value';
  end if;
  if p_remarks is null or jsonb_typeof(p_remarks) <> 'array' then
    raise exception 'p_remarks is an array' using errcode = 'invalid_parameter_value';
  end if;
  select t.target_dept into dept from private.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if dept is null or not api.current_user_can_handle_vs(dept) then
    raise exception 'NOT_FOUND' using errcode = 'no_data_found';
  end if;
  update private.vs_tickets t
     set target_dept = p_dept::private.dept_code, timeline = t.timeline || p_remarks
   where t.id = p_id;
end $$;

create function api.vs_set_public(p_id text, p_public boolean, p_title text default null,
                                  p_summary text default null)
returns void language plpgsql security definer set search_path = '' as $$
declare
  t private.vs_tickets;
begin
  if api.current_user_role() is null then
    perform private.not_authorized();
  end if;
  if p_public is null then
    raise exception 'p_public is required' using errcode = 'invalid_parameter_value';
  end if;
  select * into t from private.vs_tickets v where v.id = p_id and v.deleted_at is null;
  if t.id is null or not api.current_user_can_handle_vs(t.target_dept) then
    raise exception 'NOT_FOUND' using errcode = 'no_data_found';
  end if;
  if not p_public then
    update private.vs_tickets set is_public = false where id = p_id;
    return;
  end if;
  if not private.vs_category_publishable(t.category) then
    raise exception 'this ticket''s category cannot be published' using errcode = 'invalid_parameter_value';
  end if;
  if coalesce(btrim(p_title), '') = '' then
    raise exception 'a headline is required' using errcode = 'invalid_parameter_value';
  end if;
  if btrim(p_title) = btrim(t.description) or btrim(coalesce(p_summary, '')) = btrim(t.description) then
    raise exception 'the raw report is not published' using errcode = 'invalid_parameter_value';
  end if;
  update private.vs_tickets
     set is_public = true, public_title = btrim(p_title), public_summary = p_summary
   where id = p_id;
end $$;

create function api.vs_post_public_comment(p_id text, p_body text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  t private.vs_tickets;
  author text;
begin
  if auth.uid() is null or api.current_user_role() is null then
    perform private.not_authorized();
  end if;
  if coalesce(btrim(p_body), '') = '' then
    raise exception 'a comment needs a body' using errcode = 'invalid_parameter_value';
  end if;
  select * into t from private.vs_tickets v where v.id = p_id and v.deleted_at is null;
  if t.id is null or not t.is_public or not private.vs_category_publishable(t.category) then
    raise exception 'NOT_FOUND' using errcode = 'no_data_found';
  end if;
  if api.current_user_can_handle_vs(t.target_dept) then
    author := 'staff';
  elsif t.submitter_id = auth.uid() then
    author := 'submitter';
  else
    perform private.not_authorized();
  end if;
  if btrim(p_body) = btrim(t.description) then
    raise exception 'the raw report is not published' using errcode = 'invalid_parameter_value';
  end if;
  update private.vs_tickets v
     set public_comments = v.public_comments
       || jsonb_build_array(jsonb_build_object('by', author, 'body', btrim(p_body), 'at', now()))
   where v.id = p_id;
end $$;

create function api.get_public_vs_board()
returns table (public_ref text, public_title text, public_summary text, category text,
               status private.vs_status, created_at timestamptz)
language sql stable security definer set search_path = '' as $$
  select t.public_ref, t.public_title, t.public_summary, t.category, t.status, t.created_at
  from private.vs_tickets t
  where t.is_public and t.deleted_at is null
    and coalesce(btrim(t.public_title), '') <> ''
    and private.vs_category_publishable(t.category)
  order by t.created_at desc, t.public_ref
$$;

create function api.get_public_vs_problem(p_ref text) returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
           'public_ref', t.public_ref, 'public_title', t.public_title,
           'public_summary', t.public_summary, 'category', t.category, 'status', t.status,
           'comments', t.public_comments)
  from private.vs_tickets t
  where t.public_ref = p_ref and t.is_public and t.deleted_at is null
    and coalesce(btrim(t.public_title), '') <> ''
    and private.vs_category_publishable(t.category)
$$;

-- For the submitter holding the ticket id: whether it was merged, and the public headline of
-- the ticket it was merged into when that one is on the board (never its id).
create function api.get_vs_linked_context(p_id text) returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
           'is_duplicate', t.is_duplicate,
           'primary', (select jsonb_build_object('public_ref', p.public_ref, 'public_title', p.public_title)
                       from private.vs_tickets p
                       where p.id = t.duplicate_of and p.is_public and p.deleted_at is null
                         and coalesce(btrim(p.public_title), '') <> ''
                         and private.vs_category_publishable(p.category)))
  from private.vs_tickets t
  where t.id = p_id and t.deleted_at is null
$$;
