-- Functions exposed as /rest/v1/rpc/<name>. Each definer function re-applies the scope its
-- table's row security would.

-- Helpers the client may call.
create or replace function api.current_user_role() returns text
language sql stable security definer set search_path = ''
as $$ select private.current_user_role(); $$;
create or replace function api.current_user_dept() returns text
language sql stable security definer set search_path = ''
as $$ select private.current_user_dept(); $$;
create or replace function api.current_user_is_staff() returns boolean
language sql stable security definer set search_path = ''
as $$ select private.is_staff(); $$;
create or replace function api.current_user_has_permission(p_permission text) returns boolean
language sql stable security definer set search_path = ''
as $$ select private.has_permission(p_permission); $$;
create or replace function api.current_user_is_project_actor(p_project_id uuid) returns boolean
language sql stable security definer set search_path = ''
as $$ select private.is_project_actor(p_project_id); $$;

-- ---------------------------------------------------------------------------------------------
-- Soft delete
-- ---------------------------------------------------------------------------------------------
create or replace function api.soft_delete_vs_ticket(p_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if (select auth.uid()) is null or private.current_user_role() is null
     or not private.is_staff() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update app.vs_tickets t
     set deleted_at = now(), deleted_by = (select auth.uid())
   where t.id = p_id and t.deleted_at is null and private.can_handle_vs(t.target_dept);
  if not found then
    raise exception 'ticket not found' using errcode = 'P0002';
  end if;
end;
$$;

create or replace function api.soft_delete_pr_ticket(p_id text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if (select auth.uid()) is null or private.current_user_role() is null
     or not private.is_staff() or not private.can_handle_pr() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update app.pr_tickets t
     set deleted_at = now(), deleted_by = (select auth.uid())
   where t.id = p_id and t.deleted_at is null;
  if not found then
    raise exception 'ticket not found' using errcode = 'P0002';
  end if;
end;
$$;

create trigger pr_tickets_soft_delete instead of delete on api.pr_tickets
  for each row execute function private.pr_tickets_view_delete();

-- ---------------------------------------------------------------------------------------------
-- Guest lookups (ids are capabilities: equality only)
-- ---------------------------------------------------------------------------------------------
create or replace function api.get_vs_ticket_by_id(p_id uuid)
returns json
language sql
stable
security definer
set search_path = ''
as $$
  select json_build_object(
    'id', t.id, 'status', t.status, 'target_dept', t.target_dept,
    'category_id', t.category_id, 'is_public', t.is_public, 'public_title', t.public_title,
    'is_duplicate', t.is_duplicate, 'duplicate_of', null, 'tags', '[]'::json,
    'remarks', private.submitter_remarks(t.remarks),
    'created_at', t.created_at, 'updated_at', t.updated_at)
  from app.vs_tickets t
  where t.id = p_id and t.deleted_at is null;
$$;

create or replace function api.get_pr_ticket_by_id(p_id text)
returns table (id text, submitter_label text, status text, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.submitter_label, t.status, t.created_at
  from app.pr_tickets t
  where lower(t.id) = lower(btrim(p_id, E' \t\r\n')) and t.deleted_at is null;
$$;

-- ---------------------------------------------------------------------------------------------
-- VS handling
-- ---------------------------------------------------------------------------------------------
create or replace function api.add_vs_remark(p_id uuid, p_text text)
returns void
language plpgsql
security invoker
set search_path = ''
as $$
begin
  update app.vs_tickets t
     set remarks = t.remarks || jsonb_build_array(jsonb_build_object(
           'at', now(), 'by', t.submitter_label, 'vis', 'ticket', 'internal', false,
           'text', left(p_text, 2000)))
   where t.id = p_id;
  if not found then
    raise exception 'ticket not found' using errcode = 'P0002';
  end if;
end;
$$;

create or replace function api.find_similar_vs_tickets(p_id uuid)
returns table (id uuid, public_title text, status text, target_dept text, created_at timestamptz)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_ticket app.vs_tickets;
begin
  select * into v_ticket from app.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if v_ticket.id is null or not private.can_handle_vs(v_ticket.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    select t.id, t.public_title, t.status, t.target_dept, t.created_at
    from app.vs_tickets t
    where t.id <> v_ticket.id
      and t.deleted_at is null
      and t.category_id is not distinct from v_ticket.category_id
      and private.can_handle_vs(t.target_dept)
    order by t.created_at desc
    limit 20;
end;
$$;

create or replace function api.merge_vs_tickets(p_primary uuid, p_duplicate uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_primary app.vs_tickets;
  v_dup app.vs_tickets;
begin
  select * into v_primary from app.vs_tickets where id = p_primary and deleted_at is null;
  select * into v_dup from app.vs_tickets where id = p_duplicate and deleted_at is null;
  if v_primary.id is null or v_dup.id is null or v_primary.id = v_dup.id
     or not private.can_handle_vs(v_primary.target_dept)
     or not private.can_handle_vs(v_dup.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if v_primary.target_dept <> v_dup.target_dept and not private.is_admin() then
    raise exception 'cannot merge tickets of different departments' using errcode = '42501';
  end if;
  update app.vs_tickets
     set duplicate_of = v_primary.id,
         status = 'closed',
         remarks = remarks || jsonb_build_array(
           jsonb_build_object('at', now(), 'by', 'staff', 'vis', 'staff', 'internal', true,
                              'text', 'merged into ' || v_primary.id::text),
           jsonb_build_object('at', now(), 'by', 'staff', 'vis', 'ticket', 'internal', false,
                              'text', 'This report was closed as a duplicate of an existing one.'))
   where id = v_dup.id;
end;
$$;

create or replace function api.vs_transfer_dept(p_id uuid, p_dept text, p_remarks jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_dept text := upper(nullif(btrim(p_dept), ''));
begin
  if v_dept is null or v_dept !~ '^[A-Z]{2,10}$' then
    raise exception 'a destination department is required' using errcode = '22023';
  end if;
  if p_remarks is null or jsonb_typeof(p_remarks) <> 'array' then
    raise exception 'p_remarks must be an array' using errcode = '22023';
  end if;
  update app.vs_tickets t
     set target_dept = v_dept, remarks = t.remarks || p_remarks
   where t.id = p_id and t.deleted_at is null and private.can_handle_vs(t.target_dept);
  if not found then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Public board
-- ---------------------------------------------------------------------------------------------
create or replace function api.vs_set_public(p_id uuid, p_public boolean, p_title text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ticket app.vs_tickets;
  v_title text := nullif(btrim(p_title), '');
begin
  select * into v_ticket from app.vs_tickets where id = p_id and deleted_at is null;
  if v_ticket.id is null or not private.can_handle_vs(v_ticket.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if coalesce(p_public, false) then
    if v_title is null then
      raise exception 'a public headline is required' using errcode = '22023';
    end if;
    if not exists (select 1 from app.vs_categories c
                   where c.id = v_ticket.category_id
                     and not c.is_confidential and c.public_eligible) then
      raise exception 'this category cannot be published' using errcode = '42501';
    end if;
    update app.vs_tickets set is_public = true, public_title = v_title where id = p_id;
  else
    update app.vs_tickets set is_public = false where id = p_id;
  end if;
end;
$$;

create or replace function api.get_public_vs_board()
returns table (id uuid, public_title text, category text, status text, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.public_title, c.name, t.status, t.created_at
  from app.vs_tickets t
  join app.vs_categories c on c.id = t.category_id
  where private.vs_on_public_board(t.id)
  order by t.created_at desc
  limit 200;
$$;

create or replace function api.get_public_vs_problem(p_id uuid)
returns json
language sql
stable
security definer
set search_path = ''
as $$
  select json_build_object(
    'id', t.id, 'public_title', t.public_title, 'category', c.name, 'status', t.status,
    'created_at', t.created_at,
    'comments', coalesce((select json_agg(json_build_object('body', pc.body,
                                                             'created_at', pc.created_at)
                                          order by pc.created_at)
                          from app.vs_public_comments pc where pc.ticket_id = t.id), '[]'::json))
  from app.vs_tickets t
  join app.vs_categories c on c.id = t.category_id
  where t.id = p_id and private.vs_on_public_board(t.id);
$$;

create or replace function api.vs_post_public_comment(p_id uuid, p_body text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id uuid;
begin
  if (select auth.uid()) is null or private.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if not private.vs_on_public_board(p_id) then
    raise exception 'ticket not found' using errcode = 'P0002';
  end if;
  insert into app.vs_public_comments (ticket_id, author_id, body)
  values (p_id, (select auth.uid()), p_body)
  returning id into v_id;
  return v_id;
end;
$$;

-- For the submitter (or a handler): is the ticket a duplicate, and of which public problem.
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
    'public_problem', (select json_build_object('id', p.id, 'public_title', p.public_title)
                       from app.vs_tickets p
                       where p.id = v_ticket.duplicate_of and private.vs_on_public_board(p.id)));
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Team tree
-- ---------------------------------------------------------------------------------------------
create or replace function api.get_public_org_chart()
returns json
language sql
stable
security definer
set search_path = ''
as $$
  with recursive visible as (
    select n.id, n.parent_id, n.name, n.kind, n.position
    from app.team_nodes n
    where n.parent_id is null and n.is_public
    union all
    select n.id, n.parent_id, n.name, n.kind, n.position
    from app.team_nodes n
    join visible v on n.parent_id = v.id
    where n.is_public
  )
  select json_build_object(
    'nodes', coalesce((select json_agg(json_build_object('id', v.id, 'parent_id', v.parent_id,
                                                          'name', v.name, 'kind', v.kind,
                                                          'position', v.position)
                                        order by v.position) from visible v), '[]'::json),
    'members', coalesce((select json_agg(json_build_object('node_id', m.node_id, 'name', m.name,
                                                            'nickname', m.nickname,
                                                            'position', m.position)
                                          order by m.name)
                         from app.team_members m join visible v on v.id = m.node_id),
                        '[]'::json));
$$;

create or replace function api.sync_my_team_permissions()
returns text[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
begin
  if v_uid is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  delete from app.user_permissions where user_id = v_uid and source = 'managed';
  insert into app.user_permissions (user_id, permission_id, source)
  select distinct v_uid, p.id, 'managed'
  from app.team_members m
  cross join lateral unnest(m.permissions) as mp (slug)
  join app.permissions p on p.slug = mp.slug
  where m.user_id = v_uid;
  return array(select private.effective_permissions(v_uid) order by 1);
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Students
-- ---------------------------------------------------------------------------------------------
create or replace function api.get_my_student_record()
returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_record app.student_records;
begin
  if (select auth.uid()) is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into v_record from app.student_records where user_id = (select auth.uid());
  if v_record.id is null then
    return null;
  end if;
  return json_build_object(
    'student_id', v_record.student_id, 'full_name', v_record.full_name,
    'faculty', v_record.faculty, 'year', v_record.year,
    'requests', coalesce((
      select json_agg(r order by r.created_at desc)
      from (select c.id, c.field, c.requested_value, c.verdict, c.admin_note, c.applied_value,
                   c.decided_at, c.created_at
            from app.student_change_requests c
            where c.record_id = v_record.id
            order by c.created_at desc
            limit 10) r), '[]'::json));
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Passport
-- ---------------------------------------------------------------------------------------------
create or replace function passport.admin_leaderboard()
returns table (user_id uuid, nickname text, points integer)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if (select auth.uid()) is null or not private.is_admin() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    select p.user_id, p.nickname, p.points from passport.profiles p
    order by p.points desc limit 100;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Execute grants, role by role.
-- ---------------------------------------------------------------------------------------------
revoke execute on all functions in schema api from public, anon, authenticated;
revoke execute on all functions in schema passport from public, anon, authenticated;

grant execute on function
  api.current_user_role(), api.current_user_dept(), api.current_user_is_staff(),
  api.current_user_has_permission(text), api.current_user_is_project_actor(uuid),
  api.get_vs_ticket_by_id(uuid), api.get_pr_ticket_by_id(text),
  api.get_public_vs_board(), api.get_public_vs_problem(uuid), api.get_public_org_chart()
  to anon, authenticated;
grant execute on function
  api.soft_delete_vs_ticket(uuid), api.soft_delete_pr_ticket(text), api.add_vs_remark(uuid, text),
  api.find_similar_vs_tickets(uuid), api.merge_vs_tickets(uuid, uuid),
  api.vs_transfer_dept(uuid, text, jsonb), api.vs_set_public(uuid, boolean, text),
  api.vs_post_public_comment(uuid, text), api.get_vs_linked_context(uuid),
  api.sync_my_team_permissions(), api.get_my_student_record(), passport.admin_leaderboard()
  to authenticated;
grant execute on all functions in schema api to service_role;
grant execute on all functions in schema passport to service_role;
revoke execute on function private.pr_tickets_view_delete() from public, anon, authenticated;
revoke execute on function private.guard_users_update(), private.guard_vs_ticket_update(),
  private.guard_pr_ticket_update(), private.guard_shop_order_update(),
  private.guard_profile_update() from public, anon, authenticated;
