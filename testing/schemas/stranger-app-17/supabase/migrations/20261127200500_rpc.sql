-- Functions of the API. Workflows that write run as definer with an empty search_path and check
-- the caller themselves.

create type api.vs_ticket_card as (
  id bigint,
  target_dept text,
  status text,
  category_id text,
  title text,
  is_public boolean,
  public_title text,
  duplicate_of bigint,
  is_duplicate boolean,
  tags text[],
  remarks jsonb,
  created_at timestamptz
);

create function app.visible_remarks(p_remarks jsonb) returns jsonb
language sql immutable set search_path = '' as $$
  select coalesce(jsonb_agg(r order by o), '[]'::jsonb)
    from jsonb_array_elements(coalesce(p_remarks, '[]'::jsonb)) with ordinality as e(r, o)
   where not coalesce((r ->> 'internal')::boolean, false)
$$;

create function api.get_vs_ticket_by_id(p_id bigint) returns api.vs_ticket_card
language sql stable security definer set search_path = '' as $$
  select t.id, t.target_dept::text, t.status::text, t.category_id::text, t.title, t.is_public,
         t.public_title, null::bigint, t.is_duplicate, '{}'::text[], app.visible_remarks(t.remarks),
         t.created_at
    from app.vs_tickets t
   where t.id = p_id and t.deleted_at is null
$$;

create function api.get_pr_ticket_by_id(p_id text)
returns table (id text, submitter_label text, brief text, file_url text, created_at timestamptz)
language sql stable security definer set search_path = '' as $$
  select t.id, t.submitter_label, t.brief, t.file_url, t.created_at
    from app.pr_tickets t
   where t.id ilike btrim(p_id) and t.deleted_at is null
   limit 1
$$;

create function api.soft_delete_vs_ticket(p_id bigint) returns void
language plpgsql security definer set search_path = '' as $$
declare
  ticket app.vs_tickets;
begin
  select * into ticket from app.vs_tickets where id = p_id and deleted_at is null;
  if auth.uid() is null or not api.current_user_is_staff()
     or ticket.id is null or not api.can_handle_vs(ticket.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update app.vs_tickets set deleted_at = now() where id = p_id;
end;
$$;

create function api.soft_delete_pr_ticket(p_id text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  if auth.uid() is null or not api.current_user_is_staff() or not api.can_handle_pr() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update app.pr_tickets set deleted_at = now() where id = p_id and deleted_at is null;
  if not found then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
end;
$$;

create function api.find_similar_vs_tickets(p_id bigint)
returns table (id bigint, title text, target_dept text, status text)
language plpgsql stable security definer set search_path = '' as $$
declare
  ticket app.vs_tickets;
begin
  select * into ticket from app.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if ticket.id is null or not api.can_handle_vs(ticket.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    select t.id, t.title, t.target_dept::text, t.status::text
      from app.vs_tickets t
     where t.id <> ticket.id and t.deleted_at is null and t.duplicate_of is null
       and api.can_handle_vs(t.target_dept)
       and (t.category_id is not distinct from ticket.category_id or t.title = ticket.title)
     order by t.created_at desc
     limit 20;
end;
$$;

create function api.merge_vs_tickets(p_primary bigint, p_duplicate bigint) returns void
language plpgsql security definer set search_path = '' as $$
declare
  keep app.vs_tickets;
  dup app.vs_tickets;
begin
  select * into keep from app.vs_tickets where id = p_primary and deleted_at is null;
  select * into dup from app.vs_tickets where id = p_duplicate and deleted_at is null;
  if keep.id is null or dup.id is null or keep.id = dup.id then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  if not api.can_handle_vs(keep.target_dept) or not api.can_handle_vs(dup.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if api.current_user_role() = 'vp_admin' and keep.target_dept <> dup.target_dept then
    raise exception 'NOT_AUTHORIZED: cross-department merge' using errcode = '42501';
  end if;
  update app.vs_tickets
     set duplicate_of = keep.id,
         status = 'closed',
         remarks = remarks
           || jsonb_build_array(
                jsonb_build_object('vis', 'staff', 'by', 'system', 'internal', true,
                                   'text', 'Merged into #' || keep.id),
                jsonb_build_object('vis', 'ticket', 'by', 'system', 'internal', false,
                                   'text', 'This report was closed as a duplicate of an existing one.'))
   where id = dup.id;
end;
$$;

create function api.vs_transfer_dept(p_id bigint, p_dept text, p_remarks jsonb default '[]')
returns void
language plpgsql security definer set search_path = '' as $$
declare
  ticket app.vs_tickets;
begin
  if p_dept is null or btrim(p_dept) = '' then
    raise exception 'a destination department is required' using errcode = '22023';
  end if;
  select * into ticket from app.vs_tickets where id = p_id and deleted_at is null;
  if ticket.id is null or not api.can_handle_vs(ticket.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update app.vs_tickets
     set target_dept = btrim(p_dept),
         remarks = remarks || coalesce(p_remarks, '[]'::jsonb)
   where id = p_id;
end;
$$;

-- Board visibility: public, a category that exists, is not confidential and is eligible, and a
-- headline written by staff.
create function app.vs_on_board(p_ticket app.vs_tickets) returns boolean
language sql stable security definer set search_path = '' as $$
  select p_ticket.is_public and p_ticket.deleted_at is null
     and coalesce(btrim(p_ticket.public_title), '') <> ''
     and exists (select 1 from app.vs_categories c
                  where c.id = p_ticket.category_id and not c.is_confidential and c.public_eligible)
$$;

create function api.vs_set_public(p_id bigint, p_public boolean, p_public_title text default null,
                                  p_public_summary text default null)
returns void
language plpgsql security definer set search_path = '' as $$
declare
  ticket app.vs_tickets;
begin
  select * into ticket from app.vs_tickets where id = p_id and deleted_at is null;
  if ticket.id is null or not api.can_handle_vs(ticket.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if p_public then
    if coalesce(btrim(coalesce(p_public_title, ticket.public_title)), '') = '' then
      raise exception 'a public headline is required' using errcode = '22023';
    end if;
    if not exists (select 1 from app.vs_categories c
                    where c.id = ticket.category_id and not c.is_confidential and c.public_eligible) then
      raise exception 'this category cannot be published' using errcode = '22023';
    end if;
  end if;
  update app.vs_tickets
     set is_public = p_public,
         public_title = coalesce(p_public_title, public_title),
         public_summary = coalesce(p_public_summary, public_summary)
   where id = p_id;
end;
$$;

create function api.vs_post_public_comment(p_id bigint, p_body text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  ticket app.vs_tickets;
begin
  if auth.uid() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into ticket from app.vs_tickets where id = p_id;
  if ticket.id is null or not app.vs_on_board(ticket) then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  insert into app.vs_public_comments (ticket_id, author_id, body) values (p_id, auth.uid(), p_body);
end;
$$;

create function api.get_public_vs_board()
returns table (id bigint, public_title text, public_summary text, category_id text,
               created_at timestamptz)
language sql stable security definer set search_path = '' as $$
  select t.id, t.public_title, t.public_summary, t.category_id::text, t.created_at
    from app.vs_tickets t
   where app.vs_on_board(t)
   order by t.created_at desc
$$;

create function api.get_public_vs_problem(p_id bigint) returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
           'id', t.id,
           'public_title', t.public_title,
           'public_summary', t.public_summary,
           'category_id', t.category_id,
           'comments', coalesce((select jsonb_agg(jsonb_build_object('seq', c.seq, 'body', c.body,
                                                                      'created_at', c.created_at)
                                                  order by c.seq)
                                   from app.vs_public_comments c where c.ticket_id = t.id), '[]'::jsonb))
    from app.vs_tickets t
   where t.id = p_id and app.vs_on_board(t)
$$;

-- What a submitter tracking their ticket may see of the public problem it was linked to.
create function api.get_vs_linked_context(p_id bigint) returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  ticket app.vs_tickets;
  target app.vs_tickets;
begin
  select * into ticket from app.vs_tickets where id = p_id and deleted_at is null;
  if ticket.id is null or (ticket.submitter_id is distinct from auth.uid()
                           and not api.can_handle_vs(ticket.target_dept)) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if ticket.duplicate_of is not null then
    select * into target from app.vs_tickets where id = ticket.duplicate_of;
  else
    target := ticket;
  end if;
  if target.id is null or not app.vs_on_board(target) then
    return jsonb_build_object('linked', false);
  end if;
  return jsonb_build_object('linked', true, 'public_title', target.public_title,
                            'public_summary', target.public_summary);
end;
$$;

-- A submitter's remark, appended through the table's own rules (invoker).
create function api.add_vs_remark(p_id bigint, p_text text) returns void
language plpgsql set search_path = '' as $$
begin
  update app.vs_tickets
     set remarks = remarks || jsonb_build_array(
           jsonb_build_object('vis', 'ticket', 'by', 'submitter', 'internal', false, 'text', p_text))
   where id = p_id;
  if not found then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
end;
$$;

create function api.get_public_org_chart() returns jsonb
language sql stable security definer set search_path = '' as $$
  select jsonb_build_object(
    'nodes', coalesce((select jsonb_agg(jsonb_build_object('id', n.id, 'parent_id', n.parent_id,
                                                            'name', n.name, 'kind', n.kind,
                                                            'position', n.position)
                                         order by n.position, n.id)
                         from app.team_nodes n where app.node_effective_is_public(n.id)), '[]'::jsonb),
    'members', coalesce((select jsonb_agg(jsonb_build_object('node_id', m.node_id, 'name', m.name,
                                                               'nickname', m.nickname,
                                                               'position', m.position)
                                           order by m.node_id, m.name)
                           from app.team_members m
                          where app.node_effective_is_public(m.node_id)
                            and m.term @> current_date), '[]'::jsonb))
$$;

create function api.get_my_student_record() returns jsonb
language plpgsql stable security definer set search_path = '' as $$
declare
  rec app.student_records;
begin
  if auth.uid() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into rec from app.student_records where member_id = auth.uid();
  if rec.student_id is null then
    return null;
  end if;
  return jsonb_build_object(
    'student_id', rec.student_id, 'full_name', rec.full_name, 'faculty', rec.faculty,
    'major', rec.major, 'year', rec.year,
    'requests', coalesce((
      select jsonb_agg(jsonb_build_object('request_no', r.request_no, 'field', r.field,
                                          'requested_value', r.requested_value,
                                          'verdict', r.verdict, 'admin_note', r.admin_note,
                                          'applied_value', r.applied_value,
                                          'decided_at', r.decided_at)
                       order by r.created_at desc, r.request_no desc)
        from (select * from app.student_change_requests x
               where x.student_id = rec.student_id
               order by x.created_at desc, x.request_no desc
               limit 10) r), '[]'::jsonb));
end;
$$;

-- Mirrors the caller's team seats into managed_permissions.
create function api.sync_my_team_permissions() returns text[]
language plpgsql security definer set search_path = '' as $$
declare
  me app.members;
  perms text[];
begin
  select * into me from app.members where id = auth.uid();
  if me.id is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  perms := app.effective_team_permissions_for_email(me.email);
  update app.members set managed_permissions = perms::app.permission_list where id = me.id;
  return perms;
end;
$$;

-- The department a person's team seat gives them, by e-mail (used by the admin console).
create function api.effective_team_vs_dept_for_email(p_email text) returns text
language sql stable security definer set search_path = '' as $$
  select tm.vs_dept::text
    from app.team_members tm
   where tm.kkumail = lower(btrim(p_email)) and tm.term @> current_date and tm.vs_dept is not null
   limit 1
$$;

create function api.admin_leaderboard()
returns table (member_id uuid, nickname text, points integer, tier text)
language plpgsql stable security definer set search_path = '' as $$
begin
  if not api.current_user_is_admin() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    select p.member_id, p.nickname, p.points, t.tier::text
      from app.passport_profiles p
      left join app.passport_tiers t on t.points @> p.points
     order by p.points desc
     limit 100;
end;
$$;

-- Execute: the API roles get everything in api by default; take back what is not theirs.
revoke execute on function api.soft_delete_vs_ticket(bigint) from public, anon;
revoke execute on function api.soft_delete_pr_ticket(text) from public, anon;
revoke execute on function api.find_similar_vs_tickets(bigint) from public, anon;
revoke execute on function api.merge_vs_tickets(bigint, bigint) from public, anon;
revoke execute on function api.vs_transfer_dept(bigint, text, jsonb) from public, anon;
revoke execute on function api.vs_set_public(bigint, boolean, text, text) from public, anon;
revoke execute on function api.vs_post_public_comment(bigint, text) from public, anon;
revoke execute on function api.add_vs_remark(bigint, text) from public, anon;
revoke execute on function api.get_my_student_record() from public, anon;
revoke execute on function api.sync_my_team_permissions() from public, anon;
revoke execute on function api.effective_team_vs_dept_for_email(text) from public;
revoke execute on function app.visible_remarks(jsonb) from public, anon, authenticated;
revoke execute on function app.vs_on_board(app.vs_tickets) from public, anon, authenticated;
