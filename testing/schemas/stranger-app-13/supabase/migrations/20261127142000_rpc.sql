-- Functions of the API. Definer functions bypass row rules, so each one re-applies the caller's
-- scope from the authz helpers (rule 9) and fails closed on an unknown caller (rule 8).

-- ---------------------------------------------------------------------------------------------
-- Guest lookups by id (rule 14: equality only)
-- ---------------------------------------------------------------------------------------------
create or replace function public.get_vs_ticket_by_id(p_id bigint)
returns setof public.vs_tickets
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.submitter_id, t.submitter_label, t.target_dept, t.status, t.category, t.title, t.body,
         t.is_public, t.public_title, t.public_summary,
         null::bigint as duplicate_of,
         t.is_duplicate,
         '{}'::text[] as tags,
         coalesce((select pg_catalog.jsonb_agg(r order by i)
                     from pg_catalog.jsonb_array_elements(t.remarks) with ordinality as x(r, i)
                    where not coalesce((r ->> 'internal')::boolean, false)
                      and (r ->> 'vis') is distinct from 'internal'), '[]'::jsonb) as remarks,
         t.deleted_at, t.created_at, t.updated_at
    from public.vs_tickets t
   where t.id = p_id
     and t.deleted_at is null
$$;

create or replace function public.get_pr_ticket_by_id(p_id text)
returns table (id text, submitter_label text, brief text, file_url text, status text, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.submitter_label, t.brief, t.file_url, t.status, t.created_at
    from public.pr_tickets t
   where pg_catalog.lower(t.id) = pg_catalog.lower(pg_catalog.btrim(p_id))
     and t.deleted_at is null
$$;

-- ---------------------------------------------------------------------------------------------
-- Soft delete (rule 7)
-- ---------------------------------------------------------------------------------------------
create or replace function public.soft_delete_pr_ticket(p_id text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  if authz.uid() is null or authz.role() is null or not authz.can_handle_pr() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.pr_tickets t set deleted_at = pg_catalog.now()
   where t.id = p_id and t.deleted_at is null;
  return found;
end;
$$;

create or replace function public.soft_delete_vs_ticket(p_id bigint)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_dept text;
begin
  if authz.uid() is null or authz.role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select t.target_dept into v_dept from public.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if not found then
    return false;
  end if;
  if not authz.can_handle_vs(v_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.vs_tickets t set deleted_at = pg_catalog.now() where t.id = p_id;
  return true;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Handling (rules 6, 9)
-- ---------------------------------------------------------------------------------------------
create or replace function public.find_similar_vs_tickets(p_id bigint)
returns setof public.vs_tickets
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_source public.vs_tickets;
begin
  select * into v_source from public.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if not found or not authz.can_handle_vs(v_source.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    select t.* from public.vs_tickets t
     where t.id <> p_id
       and t.deleted_at is null
       and t.category is not distinct from v_source.category
       and authz.can_handle_vs(t.target_dept)
     order by t.created_at desc
     limit 20;
end;
$$;

create or replace function public.merge_vs_tickets(p_primary bigint, p_duplicate bigint)
returns setof public.vs_tickets
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_primary   public.vs_tickets;
  v_duplicate public.vs_tickets;
begin
  if p_primary = p_duplicate then
    raise exception 'cannot merge a ticket into itself' using errcode = '22023';
  end if;
  select * into v_primary from public.vs_tickets t where t.id = p_primary and t.deleted_at is null;
  select * into v_duplicate from public.vs_tickets t where t.id = p_duplicate and t.deleted_at is null for update;
  if v_primary.id is null or v_duplicate.id is null
     or not authz.can_handle_vs(v_primary.target_dept)
     or not authz.can_handle_vs(v_duplicate.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if v_primary.target_dept is distinct from v_duplicate.target_dept then
    raise exception 'cross-department merge is not allowed' using errcode = '42501';
  end if;

  return query
    update public.vs_tickets t
       set duplicate_of = v_primary.id,
           status = 'closed',
           remarks = t.remarks
             || pg_catalog.jsonb_build_array(
                  pg_catalog.jsonb_build_object('vis', 'internal', 'internal', true, 'by', 'system',
                    'text', pg_catalog.format('merged into #%s', v_primary.id), 'at', pg_catalog.now()),
                  pg_catalog.jsonb_build_object('vis', 'ticket', 'internal', false, 'by', 'system',
                    'text', 'This report was merged with an existing report and closed.', 'at', pg_catalog.now()))
     where t.id = v_duplicate.id
    returning t.*;
end;
$$;

create or replace function public.vs_transfer_dept(p_id bigint, p_dept text, p_remarks jsonb default '[]')
returns setof public.vs_tickets
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ticket public.vs_tickets;
begin
  if p_dept is null or pg_catalog.btrim(p_dept) = '' then
    raise exception 'a destination department is required' using errcode = '22023';
  end if;
  if p_remarks is null or pg_catalog.jsonb_typeof(p_remarks) <> 'array' then
    raise exception 'p_remarks must be an array' using errcode = '22023';
  end if;
  select * into v_ticket from public.vs_tickets t where t.id = p_id and t.deleted_at is null for update;
  if not found or not authz.can_handle_vs(v_ticket.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if pg_catalog.jsonb_array_length(v_ticket.remarks) + pg_catalog.jsonb_array_length(p_remarks) > authz.vs_remarks_cap() then
    raise exception 'too many remarks' using errcode = '22023';
  end if;
  return query
    update public.vs_tickets t
       set target_dept = pg_catalog.btrim(p_dept),
           remarks = t.remarks || p_remarks
     where t.id = p_id
    returning t.*;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Public board (rule 13)
-- ---------------------------------------------------------------------------------------------
create or replace function public.vs_set_public(p_id bigint, p_public boolean, p_public_title text default null,
                                                p_public_summary text default null)
returns setof public.vs_tickets
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ticket public.vs_tickets;
begin
  select * into v_ticket from public.vs_tickets t where t.id = p_id and t.deleted_at is null for update;
  if not found or not authz.can_handle_vs(v_ticket.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if coalesce(p_public, false) then
    if not authz.vs_category_is_public(v_ticket.category) then
      raise exception 'this category cannot be published' using errcode = '42501';
    end if;
    if pg_catalog.length(pg_catalog.btrim(coalesce(p_public_title, v_ticket.public_title, ''))) = 0 then
      raise exception 'a public headline is required' using errcode = '22023';
    end if;
  end if;
  return query
    update public.vs_tickets t
       set is_public = coalesce(p_public, false),
           public_title = coalesce(p_public_title, t.public_title),
           public_summary = coalesce(p_public_summary, t.public_summary)
     where t.id = p_id
    returning t.*;
end;
$$;

create or replace function public.get_public_vs_board()
returns table (id bigint, public_title text, public_summary text, category integer, status text, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.public_title, t.public_summary, t.category, t.status, t.created_at
    from public.vs_tickets t
   where authz.vs_ticket_is_on_board(t.id)
   order by t.created_at desc
$$;

create or replace function public.get_public_vs_problem(p_id bigint)
returns table (id bigint, public_title text, public_summary text, category integer, status text, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.public_title, t.public_summary, t.category, t.status, t.created_at
    from public.vs_tickets t
   where t.id = p_id and authz.vs_ticket_is_on_board(t.id)
$$;

create or replace function public.vs_post_public_comment(p_id bigint, p_body text)
returns setof public.vs_public_comments
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_name text;
begin
  if authz.uid() is null or authz.role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if not authz.vs_ticket_is_on_board(p_id) then
    raise exception 'ticket not found' using errcode = 'P0002';
  end if;
  select coalesce(nullif(u.display_name, ''), 'member') into v_name from public.users u where u.id = authz.uid();
  return query
    insert into public.vs_public_comments (ticket_id, author_id, author_name, body)
    values (p_id, authz.uid(), coalesce(v_name, 'member'), p_body)
    returning *;
end;
$$;

-- What a submitter may know about their own ticket's public problem.
create or replace function public.get_vs_linked_context(p_id bigint)
returns table (ticket_id bigint, is_duplicate boolean, status text, public_problem_id bigint, public_problem_title text)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.is_duplicate, t.status,
         case when authz.vs_ticket_is_on_board(t.duplicate_of) then t.duplicate_of end,
         case when authz.vs_ticket_is_on_board(t.duplicate_of) then p.public_title end
    from public.vs_tickets t
    left join public.vs_tickets p on p.id = t.duplicate_of
   where t.id = p_id
     and t.deleted_at is null
     and authz.uid() is not null
     and (t.submitter_id = authz.uid() or authz.can_handle_vs(t.target_dept))
$$;

-- ---------------------------------------------------------------------------------------------
-- Team (rule 11)
-- ---------------------------------------------------------------------------------------------
create or replace function public.get_public_org_chart()
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
    union all
    select c.id, c.parent_id, c.name, c.kind, c.position
      from public.team_nodes c
      join visible v on c.parent_id = v.id
     where c.is_public
  )
  select pg_catalog.jsonb_build_object(
    'nodes', coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                 'id', v.id, 'parent_id', v.parent_id, 'name', v.name, 'kind', v.kind, 'position', v.position)
                 order by v.position, v.id) from visible v), '[]'::jsonb),
    'members', coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                 'node_id', m.node_id, 'name', m.name, 'nickname', m.nickname, 'position', m.position)
                 order by m.node_id, m.id)
                 from public.team_members m join visible v on v.id = m.node_id), '[]'::jsonb))
$$;

create or replace function public.sync_my_team_permissions()
returns text[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_uid   uuid := authz.uid();
  v_perms text[];
begin
  if v_uid is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select coalesce(array(select distinct p
                          from public.team_members m, pg_catalog.unnest(m.permissions) p
                         where m.user_id = v_uid
                         order by p), '{}')
    into v_perms;
  update public.users u set managed_permissions = v_perms where u.id = v_uid;
  return v_perms;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Students (rule 18)
-- ---------------------------------------------------------------------------------------------
create or replace function public.get_my_student_record()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_uid uuid := authz.uid();
begin
  if v_uid is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return pg_catalog.jsonb_build_object(
    'record', (select pg_catalog.to_jsonb(r) from public.student_records r where r.user_id = v_uid),
    'change_requests', coalesce((
      select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
               'id', c.id, 'field', c.field, 'requested_value', c.requested_value,
               'verdict', c.verdict, 'note', c.note, 'applied_value', c.applied_value,
               'created_at', c.created_at, 'decided_at', c.decided_at) order by c.created_at desc, c.id desc)
        from (select * from public.student_change_requests c0
               where c0.user_id = v_uid
               order by c0.created_at desc, c0.id desc
               limit 10) c), '[]'::jsonb));
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Admin
-- ---------------------------------------------------------------------------------------------
create or replace function public.admin_set_user_access(p_user uuid, p_role text, p_department text,
                                                        p_permissions text[] default null)
returns setof public.users
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not authz.is_admin() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    update public.users u
       set role = coalesce(p_role, u.role),
           department = p_department,
           permissions = coalesce(p_permissions, u.permissions)
     where u.id = p_user
    returning u.*;
end;
$$;

create or replace function passport.admin_leaderboard()
returns table (user_id uuid, nickname text, points integer, tier text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if authz.uid() is null or not authz.is_admin() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    select t.user_id, t.nickname, t.points, t.tier
      from passport.user_tiers t
     order by t.points desc, t.user_id
     limit 100;
end;
$$;
