-- Functions the app calls through /rest/v1/rpc.

-- ---------------------------------------------------------------------------
-- Lookups by id (guests track their tickets with the id they were given)
-- ---------------------------------------------------------------------------

create or replace function public.get_vs_ticket_by_id(p_id bigint)
returns table (
  id bigint, ticket_no integer, target_dept text, category bigint, status public.vs_status,
  title text, is_public boolean, public_title text, duplicate_of bigint, is_duplicate boolean,
  tags text[], remarks jsonb, created_at timestamptz, updated_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.ticket_no, t.target_dept, t.category, t.status,
         t.title, t.is_public, t.public_title, null::bigint, t.is_duplicate,
         '{}'::text[],
         coalesce((select jsonb_agg(r) from jsonb_array_elements(t.remarks) r
                    where not coalesce((r ->> 'internal')::boolean, false)), '[]'::jsonb),
         t.created_at, t.updated_at
  from public.vs_tickets t
  where t.id = p_id and t.deleted_at is null;
$$;

create or replace function public.get_pr_ticket_by_id(p_id text)
returns table (
  id text, submitter_label text, brief text, status public.pr_status, created_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.submitter_label, t.brief, t.status, t.created_at
  from public.pr_tickets t
  where t.id ilike btrim(p_id) and t.deleted_at is null
  limit 1;
$$;

-- ---------------------------------------------------------------------------
-- Soft delete
-- ---------------------------------------------------------------------------

create or replace function public.soft_delete_pr_ticket(p_id text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_account uuid;
begin
  if (select auth.uid()) is null or public.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select t.account_id into v_account from public.pr_tickets t
   where t.id = p_id and t.deleted_at is null;
  if v_account is null then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  if not (basejump.has_role_on_account(v_account) and public.can_handle_pr()) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.pr_tickets set deleted_at = now() where id = p_id;
end
$$;

create or replace function public.soft_delete_vs_ticket(p_id bigint)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_account uuid;
begin
  if (select auth.uid()) is null or public.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select t.account_id into v_account from public.vs_tickets t
   where t.id = p_id and t.deleted_at is null;
  if v_account is null then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  if not (basejump.has_role_on_account(v_account) and public.current_user_is_admin()) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.vs_tickets set deleted_at = now() where id = p_id;
end
$$;

-- ---------------------------------------------------------------------------
-- Handling VS tickets
-- ---------------------------------------------------------------------------

create or replace function public.find_similar_vs_tickets(p_id bigint)
returns table (id bigint, ticket_no integer, title text, status public.vs_status, target_dept text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_ticket public.vs_tickets;
begin
  select * into v_ticket from public.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if v_ticket.id is null
     or not basejump.has_role_on_account(v_ticket.account_id)
     or not public.can_handle_vs(v_ticket.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    select t.id, t.ticket_no, t.title, t.status, t.target_dept
    from public.vs_tickets t
    where t.account_id = v_ticket.account_id
      and t.id <> v_ticket.id
      and t.deleted_at is null
      and t.duplicate_of is null
      and public.can_handle_vs(t.target_dept)
      and (t.category is not distinct from v_ticket.category
           or lower(t.title) like '%' || lower(left(v_ticket.title, 12)) || '%')
    order by t.created_at desc
    limit 20;
end
$$;

create or replace function public.merge_vs_tickets(p_primary bigint, p_duplicate bigint)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_primary public.vs_tickets;
  v_dup public.vs_tickets;
begin
  select * into v_primary from public.vs_tickets t where t.id = p_primary and t.deleted_at is null;
  select * into v_dup from public.vs_tickets t where t.id = p_duplicate and t.deleted_at is null;
  if v_primary.id is null or v_dup.id is null or v_primary.id = v_dup.id then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  if v_primary.account_id <> v_dup.account_id
     or not basejump.has_role_on_account(v_primary.account_id)
     or not public.can_handle_vs(v_primary.target_dept)
     or not public.can_handle_vs(v_dup.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if v_primary.target_dept <> v_dup.target_dept then
    raise exception 'Cannot merge tickets across departments' using errcode = '42501';
  end if;

  update public.vs_tickets
     set duplicate_of = v_primary.id,
         status = 'closed',
         remarks = remarks
           || jsonb_build_array(
                jsonb_build_object('vis', 'staff', 'by', 'system', 'internal', true,
                                   'text', format('Merged into #%s', v_primary.id), 'at', now()),
                jsonb_build_object('vis', 'ticket', 'by', 'system', 'internal', false,
                                   'text', 'This report was merged with an existing one and closed.', 'at', now()))
   where id = v_dup.id;
end
$$;

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
    raise exception 'A destination department is required' using errcode = '22023';
  end if;
  if jsonb_typeof(coalesce(p_remarks, '[]'::jsonb)) <> 'array' then
    raise exception 'p_remarks must be an array' using errcode = '22023';
  end if;
  select * into v_ticket from public.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if v_ticket.id is null
     or not basejump.has_role_on_account(v_ticket.account_id)
     or not public.can_handle_vs(v_ticket.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.vs_tickets
     set target_dept = upper(btrim(p_dept)),
         remarks = remarks || coalesce(p_remarks, '[]'::jsonb)
   where id = p_id;
end
$$;

-- ---------------------------------------------------------------------------
-- Public board
-- ---------------------------------------------------------------------------

create or replace function public.vs_set_public(p_id bigint, p_public boolean, p_title text default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ticket public.vs_tickets;
begin
  select * into v_ticket from public.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if v_ticket.id is null
     or not basejump.has_role_on_account(v_ticket.account_id)
     or not public.can_handle_vs(v_ticket.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if p_public then
    if exists (select 1 from public.vs_categories c
                where c.id = v_ticket.category and (c.is_confidential or not c.public_eligible)) then
      raise exception 'This category cannot be published' using errcode = '42501';
    end if;
    if coalesce(btrim(p_title), '') = '' then
      raise exception 'A public headline is required' using errcode = '22023';
    end if;
    update public.vs_tickets set is_public = true, public_title = btrim(p_title) where id = p_id;
  else
    update public.vs_tickets set is_public = false where id = p_id;
  end if;
end
$$;

create or replace function public.vs_is_on_board(p_id bigint)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.vs_tickets t
    join public.vs_categories c on c.id = t.category
    where t.id = p_id
      and t.deleted_at is null
      and t.is_public
      and t.public_title is not null
      and not c.is_confidential
      and c.public_eligible
  );
$$;

create or replace function public.get_public_vs_board(p_account uuid default null)
returns table (id bigint, ticket_no integer, public_title text, public_summary text,
               status public.vs_status, category_name text, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.ticket_no, t.public_title, t.public_summary, t.status, c.name, t.created_at
  from public.vs_tickets t
  join public.vs_categories c on c.id = t.category
  where t.deleted_at is null
    and t.is_public
    and t.public_title is not null
    and not c.is_confidential
    and c.public_eligible
    and (p_account is null or t.account_id = p_account)
  order by t.created_at desc
  limit 200;
$$;

create or replace function public.get_public_vs_problem(p_id bigint)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_result jsonb;
begin
  if not public.vs_is_on_board(p_id) then
    return null;
  end if;
  select jsonb_build_object(
           'id', t.id,
           'public_title', t.public_title,
           'public_summary', t.public_summary,
           'status', t.status,
           'comments', coalesce((select jsonb_agg(jsonb_build_object('id', c.id, 'body', c.body, 'created_at', c.created_at)
                                                   order by c.created_at)
                                  from public.vs_public_comments c where c.ticket_id = t.id), '[]'::jsonb))
    into v_result
  from public.vs_tickets t
  where t.id = p_id;
  return v_result;
end
$$;

create or replace function public.vs_post_public_comment(p_id bigint, p_body text)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id bigint;
begin
  if (select auth.uid()) is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if not public.vs_is_on_board(p_id) then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  insert into public.vs_public_comments (ticket_id, author_id, body)
  values (p_id, (select auth.uid()), btrim(p_body))
  returning id into v_id;
  return v_id;
end
$$;

create or replace function public.get_vs_linked_context(p_id bigint)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_ticket public.vs_tickets;
begin
  select * into v_ticket from public.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if v_ticket.id is null then
    return null;
  end if;
  if v_ticket.submitter_id = (select auth.uid()) then
    return jsonb_build_object(
      'id', v_ticket.id,
      'is_duplicate', v_ticket.is_duplicate,
      'on_board', public.vs_is_on_board(v_ticket.id));
  end if;
  if basejump.has_role_on_account(v_ticket.account_id) and public.can_handle_vs(v_ticket.target_dept) then
    return jsonb_build_object(
      'id', v_ticket.id,
      'is_duplicate', v_ticket.is_duplicate,
      'duplicate_of', v_ticket.duplicate_of,
      'on_board', public.vs_is_on_board(v_ticket.id),
      'duplicates', coalesce((select jsonb_agg(d.id) from public.vs_tickets d
                               where d.duplicate_of = v_ticket.id and d.deleted_at is null), '[]'::jsonb));
  end if;
  if public.vs_is_on_board(v_ticket.id) then
    return jsonb_build_object('id', v_ticket.id, 'on_board', true);
  end if;
  return null;
end
$$;

-- ---------------------------------------------------------------------------
-- Team
-- ---------------------------------------------------------------------------

create or replace function public.get_public_org_chart(p_account uuid default null)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with recursive visible as (
    select n.id, n.parent_id, n.name, n.kind, n.position
    from public.team_nodes n
    where n.parent_id is null and n.is_public
      and (p_account is null or n.account_id = p_account)
    union all
    select n.id, n.parent_id, n.name, n.kind, n.position
    from public.team_nodes n
    join visible v on n.parent_id = v.id
    where n.is_public
  )
  select jsonb_build_object(
    'nodes', coalesce((select jsonb_agg(jsonb_build_object(
                 'id', v.id, 'parent_id', v.parent_id, 'name', v.name, 'kind', v.kind, 'position', v.position)
                 order by v.position) from visible v), '[]'::jsonb),
    'members', coalesce((select jsonb_agg(jsonb_build_object(
                 'node_id', m.node_id, 'name', m.name, 'nickname', m.nickname, 'position', m.position)
                 order by m.name)
               from public.team_members m join visible v on v.id = m.node_id), '[]'::jsonb));
$$;

create or replace function public.effective_team_permissions_for_email(p_email extensions.citext)
returns text[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(distinct p order by p), '{}')
  from public.team_members m, unnest(m.permissions) p
  where m.kkumail = p_email;
$$;

create or replace function public.effective_team_dept_for_email(p_email extensions.citext)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select m.vs_dept from public.team_members m
  where m.kkumail = p_email and m.vs_dept is not null
  order by m.updated_at desc nulls last
  limit 1;
$$;

create or replace function public.node_effective_permissions(p_node uuid)
returns text[]
language sql
stable
security definer
set search_path = ''
as $$
  with recursive up as (
    select n.id, n.parent_id from public.team_nodes n where n.id = p_node
    union all
    select n.id, n.parent_id from public.team_nodes n join up on n.id = up.parent_id
  )
  select coalesce(array_agg(distinct p order by p), '{}')
  from public.team_members m join up on up.id = m.node_id, unnest(m.permissions) p;
$$;

create or replace function public.sync_my_team_permissions()
returns text[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email extensions.citext;
  v_perms text[];
begin
  if (select auth.uid()) is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select u.email into v_email from public.users u where u.id = (select auth.uid());
  v_perms := public.effective_team_permissions_for_email(v_email);
  update public.users set managed_permissions = v_perms where id = (select auth.uid());
  update public.team_members set user_id = (select auth.uid())
   where kkumail = v_email and user_id is null;
  return v_perms;
end
$$;

-- ---------------------------------------------------------------------------
-- Students
-- ---------------------------------------------------------------------------

create or replace function public.get_my_student_record()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_record public.student_records;
begin
  if (select auth.uid()) is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into v_record from public.student_records r
   where r.user_id = (select auth.uid())
   order by r.created_at
   limit 1;
  if v_record.id is null then
    return null;
  end if;
  return jsonb_build_object(
    'record', jsonb_build_object('id', v_record.id, 'student_id', v_record.student_id,
                                 'full_name', v_record.full_name, 'faculty', v_record.faculty,
                                 'major', v_record.major, 'year', v_record.year),
    'requests', coalesce((
      select jsonb_agg(x order by x.created_at desc)
      from (select c.id, c.field, c.requested_value, c.status, c.verdict, c.admin_note,
                   c.applied_value, c.decided_at, c.created_at
            from public.student_change_requests c
            where c.record_id = v_record.id
            order by c.created_at desc
            limit 10) x), '[]'::jsonb));
end
$$;

-- ---------------------------------------------------------------------------
-- passport
-- ---------------------------------------------------------------------------

create or replace function passport.admin_leaderboard()
returns table (user_id uuid, nickname text, points integer, tier text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not public.current_user_is_admin() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    select p.user_id, p.nickname, p.points,
           (select t.name from passport.tiers t where t.min_points <= p.points
             order by t.min_points desc limit 1)
    from passport.profiles p
    order by p.points desc
    limit 100;
end
$$;
