-- Campus desk, part 5: the functions. Definer functions bypass row rules, so each one
-- re-applies the caller's scope (rule 9) and treats what it cannot resolve as denied (rule 8).

create function private.category_is_public(p_category text) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((
    select not c.is_confidential and c.public_eligible from public.vs_categories c where c.id = p_category
  ), false)
$$;

create function private.on_public_board(t public.vs_tickets) returns boolean
language sql stable security definer set search_path = '' as $$
  select t.deleted_at is null and t.is_public and private.category_is_public(t.category)
     and coalesce(btrim(t.public_title), '') <> ''
$$;

-- The ticket by its id, sanitized for whoever holds the id.
create function public.get_vs_ticket_by_id(p_id bigint)
returns table (
  id bigint, target_dept text, category text, status public.vs_status, title text, report text,
  is_public boolean, public_title text, duplicate_of bigint, is_duplicate boolean, tags text[],
  remarks jsonb, created_at timestamptz, updated_at timestamptz
)
language sql stable security definer set search_path = '' as $$
  select t.id, t.target_dept::text, t.category, t.status, t.title, t.report,
         t.is_public, t.public_title, null::bigint, t.is_duplicate, '{}'::text[],
         coalesce((select jsonb_agg(e order by n) from jsonb_array_elements(t.remarks) with ordinality as r(e, n)
                   where not coalesce((e ->> 'internal')::boolean, false)), '[]'::jsonb),
         t.created_at, t.updated_at
  from public.vs_tickets t
  where t.id = p_id and t.deleted_at is null
$$;

create function public.get_pr_ticket_by_id(p_id text)
returns table (id text, submitter_label text, brief text, file_url text, status public.pr_status, created_at timestamptz)
language sql stable security definer set search_path = '' as $$
  select t.id, t.submitter_label, t.brief, t.file_url, t.status, t.created_at
  from public.pr_tickets t
  where lower(t.id) = lower(btrim(p_id)) and t.deleted_at is null
$$;

create function public.soft_delete_pr_ticket(p_id text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  if auth.uid() is null or private.current_role() is null or not private.is_staff() or not private.is_pr_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.pr_tickets set deleted_at = now() where id = p_id and deleted_at is null;
  if not found then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
end $$;

create function public.soft_delete_vs_ticket(p_id bigint) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_dept text;
begin
  if auth.uid() is null or private.current_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select t.target_dept into v_dept from public.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if v_dept is null or not private.may_delete_vs_ticket(v_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.vs_tickets set deleted_at = now() where id = p_id;
end $$;

create function public.find_similar_vs_tickets(p_id bigint)
returns table (id bigint, title text, target_dept text, status public.vs_status, category text)
language plpgsql stable security definer set search_path = '' as $$
declare
  v_src public.vs_tickets;
begin
  select * into v_src from public.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if v_src.id is null or not private.can_handle_vs(v_src.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    select t.id, t.title, t.target_dept::text, t.status, t.category
    from public.vs_tickets t
    where t.id <> v_src.id and t.deleted_at is null and t.duplicate_of is null
      and private.can_handle_vs(t.target_dept)
      and (t.category is not distinct from v_src.category or lower(t.title) = lower(v_src.title))
    order by t.created_at desc
    limit 20;
end $$;

create function public.merge_vs_tickets(p_duplicate bigint, p_primary bigint) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_dup public.vs_tickets;
  v_pri public.vs_tickets;
begin
  if auth.uid() is null or private.current_role() is null or not private.is_vs_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into v_dup from public.vs_tickets t where t.id = p_duplicate and t.deleted_at is null;
  select * into v_pri from public.vs_tickets t where t.id = p_primary and t.deleted_at is null;
  if v_dup.id is null or v_pri.id is null
     or not private.can_handle_vs(v_dup.target_dept) or not private.can_handle_vs(v_pri.target_dept) then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  if v_dup.id = v_pri.id then
    raise exception 'A ticket cannot be merged into itself' using errcode = '22023';
  end if;
  if v_dup.target_dept <> v_pri.target_dept then
    raise exception 'Cannot merge tickets across departments' using errcode = '42501';
  end if;
  update public.vs_tickets t set
    duplicate_of = v_pri.id,
    status = 'closed',
    remarks = t.remarks
      || jsonb_build_array(
           jsonb_build_object('vis', 'staff', 'by', 'system', 'internal', true,
                              'body', 'Merged into ticket ' || v_pri.id, 'at', now()),
           jsonb_build_object('vis', 'ticket', 'by', 'system', 'internal', false,
                              'body', 'This report was closed because the same issue is already being handled.', 'at', now()))
  where t.id = v_dup.id;
  update public.vs_tickets t set
    remarks = t.remarks || jsonb_build_array(jsonb_build_object('vis', 'staff', 'by', 'system', 'internal', true,
                              'body', 'Ticket ' || v_dup.id || ' merged here', 'at', now()))
  where t.id = v_pri.id;
end $$;

create function public.vs_transfer_dept(p_id bigint, p_dept text, p_remarks jsonb default '[]') returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_dept text;
begin
  if auth.uid() is null or private.current_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if p_dept is null or btrim(p_dept) = '' then
    raise exception 'A destination department is required' using errcode = '22023';
  end if;
  select t.target_dept into v_dept from public.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if v_dept is null or not private.can_handle_vs(v_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if jsonb_typeof(coalesce(p_remarks, '[]'::jsonb)) <> 'array' then
    raise exception 'p_remarks must be an array' using errcode = '22023';
  end if;
  update public.vs_tickets t
    set target_dept = btrim(p_dept), remarks = t.remarks || coalesce(p_remarks, '[]'::jsonb)
  where t.id = p_id;
end $$;

create function public.vs_set_public(p_id bigint, p_public boolean, p_title text default null) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_t public.vs_tickets;
begin
  if auth.uid() is null or private.current_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into v_t from public.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if v_t.id is null or not private.can_handle_vs(v_t.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if p_public then
    if not private.category_is_public(v_t.category) then
      raise exception 'This category cannot be published' using errcode = '42501';
    end if;
    if coalesce(btrim(coalesce(p_title, v_t.public_title)), '') = '' then
      raise exception 'A public headline is required' using errcode = '22023';
    end if;
    update public.vs_tickets set is_public = true, public_title = btrim(coalesce(p_title, v_t.public_title))
    where id = p_id;
  else
    update public.vs_tickets set is_public = false where id = p_id;
  end if;
end $$;

create function public.get_public_vs_board()
returns table (public_ref uuid, public_title text, category text, status public.vs_status, created_at timestamptz)
language sql stable security definer set search_path = '' as $$
  select t.public_ref, t.public_title, t.category, t.status, t.created_at
  from public.vs_tickets t
  where private.on_public_board(t)
  order by t.created_at desc
$$;

create function public.get_public_vs_problem(p_ref uuid)
returns table (public_ref uuid, public_title text, category text, status public.vs_status, created_at timestamptz,
               comments jsonb)
language sql stable security definer set search_path = '' as $$
  select t.public_ref, t.public_title, t.category, t.status, t.created_at,
         coalesce((select jsonb_agg(jsonb_build_object('body', c.body, 'created_at', c.created_at) order by c.id)
                   from public.vs_public_comments c where c.ticket_id = t.id), '[]'::jsonb)
  from public.vs_tickets t
  where t.public_ref = p_ref and private.on_public_board(t)
$$;

create function public.vs_post_public_comment(p_ref uuid, p_body text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  v_t public.vs_tickets;
begin
  if auth.uid() is null or private.current_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into v_t from public.vs_tickets t where t.public_ref = p_ref;
  if v_t.id is null or not private.on_public_board(v_t) then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  insert into public.vs_public_comments (ticket_id, author_id, body) values (v_t.id, auth.uid(), p_body);
end $$;

-- For the submitter tracking their ticket by id: where it stands on the public board.
create function public.get_vs_linked_context(p_id bigint)
returns table (public_ref uuid, public_title text, on_board boolean, comments jsonb)
language sql stable security definer set search_path = '' as $$
  select t.public_ref, t.public_title, true,
         coalesce((select jsonb_agg(jsonb_build_object('body', c.body, 'created_at', c.created_at) order by c.id)
                   from public.vs_public_comments c where c.ticket_id = t.id), '[]'::jsonb)
  from public.vs_tickets t
  where t.id = p_id and private.on_public_board(t)
$$;

create function public.get_public_org_chart() returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'nodes', coalesce((select jsonb_agg(jsonb_build_object('id', n.id, 'parent_id', n.parent_id, 'name', n.name,
                                                           'kind', n.kind, 'position', n.position) order by n.position, n.id)
                       from public.team_nodes n where private.node_effective_is_public(n.id)), '[]'::jsonb),
    'members', coalesce((select jsonb_agg(jsonb_build_object('node_id', m.node_id, 'name', m.name,
                                                             'nickname', m.nickname, 'position', m.position) order by m.node_id, m.id)
                         from public.team_members m where private.node_effective_is_public(m.node_id)), '[]'::jsonb))
$$;

create function public.get_my_student_record() returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  v_rec public.student_records;
begin
  if auth.uid() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into v_rec from public.student_records r where r.user_id = auth.uid();
  if v_rec.student_id is null then
    return null;
  end if;
  return jsonb_build_object(
    'record', jsonb_build_object('student_id', v_rec.student_id, 'full_name', v_rec.full_name,
                                 'faculty', v_rec.faculty, 'year', v_rec.year, 'email', v_rec.email),
    'requests', coalesce((
      select jsonb_agg(x order by x ->> 'created_at' desc, (x ->> 'id')::bigint desc) from (
        select jsonb_build_object('id', q.id, 'field', q.field, 'requested_value', q.requested_value,
                                  'verdict', q.verdict, 'admin_note', q.admin_note, 'applied_value', q.applied_value,
                                  'decided_at', q.decided_at, 'created_at', q.created_at) as x
        from public.student_change_requests q
        where q.student_id = v_rec.student_id
        order by q.created_at desc, q.id desc
        limit 10) s), '[]'::jsonb));
end $$;

create function public.sync_my_team_permissions() returns text[]
language plpgsql security definer set search_path = '' as $$
declare
  v_email text;
  v_perms public.permission_flag[];
begin
  if auth.uid() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select a.email into v_email from auth.users a where a.id = auth.uid();
  v_perms := private.effective_team_permissions_for_email(v_email);
  perform set_config('campus.trusted_write', 'on', true);
  update public.users set managed_permissions = v_perms where id = auth.uid();
  perform set_config('campus.trusted_write', 'off', true);
  return v_perms::text[];
end $$;
