-- VS tickets (student voice): categories, tickets, public comments, and their RPCs.

create type public.vs_status as enum ('open', 'in_progress', 'waiting', 'resolved', 'closed');

create table public.vs_categories (
  id              bigint generated always as identity primary key,
  name            text not null unique,
  -- Unknown until staff classify it: confidential and not eligible by default (rule 8).
  is_confidential boolean not null default true,
  public_eligible boolean not null default false
);

create table public.vs_tickets (
  id             bigint generated always as identity primary key,
  org_id         uuid not null default private.jwt_org_id() references public.orgs (id),
  submitter_id   uuid not null default auth.uid() references public.users (id) on delete cascade,
  submitter_label text not null,
  target_dept    public.dept_code not null,
  status         public.vs_status not null default 'open',
  category_id    bigint references public.vs_categories (id) on delete set null,
  subject        text not null check (char_length(subject) between 3 and 200),
  body           text not null default '',
  is_public      boolean not null default false,
  public_title   text,
  public_summary text,
  duplicate_of   bigint references public.vs_tickets (id) on delete set null,
  is_duplicate   boolean generated always as (duplicate_of is not null) stored,
  tags           text[] not null default '{}',
  -- [{ "vis": "ticket" | "staff", "by": text, "internal": bool, "text": text, "at": ts }]
  remarks        jsonb not null default '[]' check (jsonb_typeof(remarks) = 'array'),
  deleted_at     timestamptz,
  created_at     timestamptz not null default now(),
  updated_at     timestamptz not null default now(),
  constraint vs_not_own_duplicate check (duplicate_of is distinct from id),
  constraint vs_public_needs_title check (not is_public or public_title is not null)
);
create index vs_tickets_org_dept_idx on public.vs_tickets (org_id, target_dept) where deleted_at is null;
create index vs_tickets_submitter_idx on public.vs_tickets (submitter_id);
create index vs_tickets_tags_idx on public.vs_tickets using gin (tags);

create trigger vs_tickets_touch before update on public.vs_tickets
  for each row execute function private.touch_updated_at();

-- Remarks cap (section 8).
create or replace function private.vs_remarks_cap()
returns integer language sql immutable set search_path = '' as $$ select 50 $$;

-- Guard (rules 1, 3): a submitter who is not a handler may change only body and remarks, and
-- remarks only by appending entries with vis 'ticket' attributed to their own label.
create or replace function private.vs_tickets_submitter_guard()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_added jsonb;
  v_entry jsonb;
begin
  if (select auth.uid()) is null then
    return new;  -- server context
  end if;
  if private.can_handle_vs(old.target_dept) then
    return new;
  end if;
  if (to_jsonb(new) - array['body', 'remarks', 'updated_at', 'is_duplicate'])
     is distinct from (to_jsonb(old) - array['body', 'remarks', 'updated_at', 'is_duplicate']) then
    raise exception 'submitters may only edit the body and add remarks'
      using errcode = '42501';
  end if;
  if new.remarks is distinct from old.remarks then
    if jsonb_array_length(new.remarks) < jsonb_array_length(old.remarks)
       or (select coalesce(jsonb_agg(e order by i), '[]'::jsonb)
             from jsonb_array_elements(new.remarks) with ordinality as r(e, i)
            where i <= jsonb_array_length(old.remarks)) is distinct from old.remarks then
      raise exception 'remarks are append-only' using errcode = '42501';
    end if;
    if jsonb_array_length(new.remarks) > private.vs_remarks_cap() then
      raise exception 'too many remarks' using errcode = '42501';
    end if;
    for v_entry in
      select e from jsonb_array_elements(new.remarks) with ordinality as r(e, i)
       where i > jsonb_array_length(old.remarks)
    loop
      if jsonb_typeof(v_entry) <> 'object'
         or v_entry ->> 'vis' is distinct from 'ticket'
         or v_entry ->> 'by' is distinct from old.submitter_label
         or coalesce(v_entry ->> 'internal', 'false') <> 'false' then
        raise exception 'a submitter remark must be vis=ticket, by the submitter, not internal'
          using errcode = '42501';
      end if;
    end loop;
  end if;
  return new;
end;
$$;

create trigger vs_tickets_guard before update on public.vs_tickets
  for each row execute function private.vs_tickets_submitter_guard();

-- ---------------------------------------------------------------- row rules
alter table public.vs_categories enable row level security;
alter table public.vs_tickets enable row level security;

grant select on public.vs_categories to anon, authenticated;
grant insert, update on public.vs_categories to authenticated;
create policy vs_categories_read on public.vs_categories for select to anon, authenticated
  using (true);
create policy vs_categories_staff_insert on public.vs_categories for insert to authenticated
  with check ((select public.current_user_is_staff()));
create policy vs_categories_staff_update on public.vs_categories for update to authenticated
  using ((select public.current_user_is_staff()))
  with check ((select public.current_user_is_staff()));

-- id is identity; org_id and submitter_id come from the token; deleted_at, duplicate_of,
-- is_public and target_dept change through RPCs only.
grant select, delete on public.vs_tickets to authenticated;
grant insert (submitter_label, target_dept, category_id, subject, body, remarks)
  on public.vs_tickets to authenticated;
grant update (status, category_id, public_title, public_summary, tags, remarks, body)
  on public.vs_tickets to authenticated;

create policy vs_tenant on public.vs_tickets as restrictive for all to authenticated
  using (org_id = (select private.jwt_org_id()))
  with check (org_id = (select private.jwt_org_id()));

create policy vs_not_deleted on public.vs_tickets as restrictive for select to authenticated
  using (deleted_at is null);

create policy vs_select_submitter on public.vs_tickets for select to authenticated
  using (submitter_id = (select auth.uid()));

create policy vs_select_handler on public.vs_tickets for select to authenticated
  using (private.can_handle_vs(target_dept));

create policy vs_insert_submitter on public.vs_tickets for insert to authenticated
  with check (submitter_id = (select auth.uid())
              and status = 'open' and not is_public and duplicate_of is null
              and tags = '{}' and remarks = '[]'::jsonb);

create policy vs_update_submitter on public.vs_tickets for update to authenticated
  using (submitter_id = (select auth.uid()))
  with check (submitter_id = (select auth.uid()));

create policy vs_update_handler on public.vs_tickets for update to authenticated
  using (private.can_handle_vs(target_dept))
  with check (private.can_handle_vs(target_dept));

-- Hard delete: admins only; soft delete re-checks the same predicate (rule 7).
create or replace function private.can_delete_vs_ticket(p_dept text)
returns boolean language sql stable set search_path = '' as $$
  select private.is_admin() or (public.current_user_is_staff() and private.can_handle_vs(p_dept))
$$;
revoke execute on function private.can_delete_vs_ticket(text) from public, anon, authenticated;
grant execute on function private.can_delete_vs_ticket(text) to authenticated;

create policy vs_delete_staff on public.vs_tickets for delete to authenticated
  using (private.can_delete_vs_ticket(target_dept));

-- Submitter-facing read (rule 12): allow-list, no duplicate_of/tags, no internal remarks.
create view public.my_vs_tickets with (security_invoker = true) as
  select t.id, t.subject, t.body, t.status, t.target_dept, t.category_id, t.is_duplicate,
         t.created_at, t.updated_at,
         coalesce((select jsonb_agg(e order by i)
                     from jsonb_array_elements(t.remarks) with ordinality as r(e, i)
                    where coalesce((e ->> 'internal')::boolean, false) = false
                      and e ->> 'vis' = 'ticket'), '[]'::jsonb) as remarks
    from public.vs_tickets t
   where t.submitter_id = (select auth.uid());
grant select on public.my_vs_tickets to authenticated;

-- ---------------------------------------------------------------- public comments
create table public.vs_public_comments (
  id         bigint generated always as identity primary key,
  ticket_id  bigint not null references public.vs_tickets (id) on delete cascade,
  author_id  uuid not null default auth.uid() references public.users (id) on delete cascade,
  body       text not null check (char_length(body) between 1 and 2000),
  created_at timestamptz not null default now()
);
alter table public.vs_public_comments enable row level security;
-- Read and written through the board RPCs only.

-- Shared visibility rule for the public board (rules 8, 13): one definition, every RPC uses it.
create or replace function private.vs_is_on_board(p_ticket public.vs_tickets)
returns boolean
language sql stable
set search_path = ''
as $$
  select p_ticket.is_public
     and p_ticket.deleted_at is null
     and p_ticket.public_title is not null
     and btrim(p_ticket.public_title) <> ''
     and exists (select 1 from public.vs_categories c
                  where c.id = p_ticket.category_id
                    and not c.is_confidential
                    and c.public_eligible)
$$;
revoke execute on function private.vs_is_on_board(public.vs_tickets) from public, anon, authenticated;

-- ---------------------------------------------------------------- RPCs
create or replace function public.get_vs_ticket_by_id(p_id bigint)
returns table (id bigint, subject text, status public.vs_status, target_dept text,
               category_id bigint, is_duplicate boolean, duplicate_of bigint, tags text[],
               remarks jsonb, created_at timestamptz)
language sql stable
security definer
set search_path = ''
as $$
  select t.id, t.subject, t.status, t.target_dept, t.category_id, t.is_duplicate,
         null::bigint, '{}'::text[],
         coalesce((select jsonb_agg(e order by i)
                     from jsonb_array_elements(t.remarks) with ordinality as r(e, i)
                    where coalesce((e ->> 'internal')::boolean, false) = false), '[]'::jsonb),
         t.created_at
    from public.vs_tickets t
   where t.id = p_id
     and t.deleted_at is null
$$;

create or replace function public.soft_delete_vs_ticket(p_id bigint)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare v public.vs_tickets;
begin
  if public.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into v from public.vs_tickets
   where id = p_id and deleted_at is null and org_id = private.jwt_org_id()
   for update;
  if not found or not private.can_delete_vs_ticket(v.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.vs_tickets set deleted_at = now() where id = p_id;
end;
$$;

create or replace function public.find_similar_vs_tickets(p_id bigint)
returns setof public.vs_tickets
language plpgsql stable
security definer
set search_path = ''
as $$
declare v public.vs_tickets;
begin
  select * into v from public.vs_tickets
   where id = p_id and deleted_at is null and org_id = private.jwt_org_id();
  if not found or not private.can_handle_vs(v.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    select t.* from public.vs_tickets t
     where t.id <> v.id
       and t.org_id = v.org_id
       and t.deleted_at is null
       and private.can_handle_vs(t.target_dept)
       and (t.category_id = v.category_id or t.tags && v.tags)
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
declare p public.vs_tickets; d public.vs_tickets;
begin
  if p_primary = p_duplicate then
    raise exception 'cannot merge a ticket into itself' using errcode = '22023';
  end if;
  select * into p from public.vs_tickets
   where id = p_primary and deleted_at is null and org_id = private.jwt_org_id();
  select * into d from public.vs_tickets
   where id = p_duplicate and deleted_at is null and org_id = private.jwt_org_id();
  if p.id is null or d.id is null
     or not private.can_handle_vs(p.target_dept) or not private.can_handle_vs(d.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if public.current_user_role() = 'vp_admin' and p.target_dept <> d.target_dept then
    raise exception 'cross-department merge is not allowed' using errcode = '42501';
  end if;
  update public.vs_tickets
     set duplicate_of = p.id,
         status = 'closed',
         remarks = remarks
           || jsonb_build_array(jsonb_build_object('vis', 'staff', 'by', 'system', 'internal', true,
                                                   'text', format('merged into #%s', p.id), 'at', now()))
           || jsonb_build_array(jsonb_build_object('vis', 'ticket', 'by', 'system', 'internal', false,
                                                   'text', 'This report was closed as a duplicate of an existing one.',
                                                   'at', now()))
   where id = d.id;
end;
$$;

create or replace function public.vs_transfer_dept(p_id bigint, p_dept text, p_remarks jsonb default '[]')
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare v public.vs_tickets;
begin
  if p_dept is null or btrim(p_dept) = '' then
    raise exception 'destination department required' using errcode = '22023';
  end if;
  if p_remarks is null or jsonb_typeof(p_remarks) <> 'array' then
    raise exception 'p_remarks must be an array' using errcode = '22023';
  end if;
  select * into v from public.vs_tickets
   where id = p_id and deleted_at is null and org_id = private.jwt_org_id()
   for update;
  if not found or not private.can_handle_vs(v.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.vs_tickets
     set target_dept = btrim(p_dept)::public.dept_code,
         remarks = remarks || p_remarks
   where id = p_id;
end;
$$;

create or replace function public.vs_set_public(p_id bigint, p_public boolean, p_title text default null,
                                                p_summary text default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare v public.vs_tickets;
begin
  select * into v from public.vs_tickets
   where id = p_id and deleted_at is null and org_id = private.jwt_org_id()
   for update;
  if not found or not public.current_user_is_staff() or not private.can_handle_vs(v.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if p_public then
    v.is_public := true;
    v.public_title := coalesce(nullif(btrim(p_title), ''), v.public_title);
    v.public_summary := coalesce(p_summary, v.public_summary);
    if not private.vs_is_on_board(v) then
      raise exception 'ticket cannot be published: headline and a public, non-confidential category are required'
        using errcode = '22023';
    end if;
    if v.public_summary is not null and v.public_summary = v.body then
      raise exception 'write a summary; the report is not published verbatim' using errcode = '22023';
    end if;
  end if;
  update public.vs_tickets
     set is_public = p_public, public_title = v.public_title, public_summary = v.public_summary
   where id = p_id;
end;
$$;

create or replace function public.get_public_vs_board()
returns table (id bigint, title text, summary text, category text, status public.vs_status,
               created_at timestamptz)
language sql stable
security definer
set search_path = ''
as $$
  select t.id, t.public_title, t.public_summary, c.name, t.status, t.created_at
    from public.vs_tickets t
    join public.vs_categories c on c.id = t.category_id
   where private.vs_is_on_board(t)
   order by t.created_at desc
   limit 200
$$;

create or replace function public.get_public_vs_problem(p_id bigint)
returns table (id bigint, title text, summary text, category text, status public.vs_status,
               comments jsonb)
language sql stable
security definer
set search_path = ''
as $$
  select t.id, t.public_title, t.public_summary, c.name, t.status,
         coalesce((select jsonb_agg(jsonb_build_object('id', pc.id, 'body', pc.body, 'at', pc.created_at)
                                    order by pc.created_at)
                     from public.vs_public_comments pc where pc.ticket_id = t.id), '[]'::jsonb)
    from public.vs_tickets t
    join public.vs_categories c on c.id = t.category_id
   where t.id = p_id and private.vs_is_on_board(t)
$$;

create or replace function public.vs_post_public_comment(p_id bigint, p_body text)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare v public.vs_tickets; v_id bigint;
begin
  if (select auth.uid()) is null or public.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into v from public.vs_tickets where id = p_id;
  if not found or not private.vs_is_on_board(v) then
    raise exception 'ticket not found' using errcode = 'P0002';
  end if;
  insert into public.vs_public_comments (ticket_id, author_id, body)
  values (p_id, auth.uid(), p_body)
  returning id into v_id;
  return v_id;
end;
$$;

-- Tracking context for the submitter and handlers: the public side only when on the board.
create or replace function public.get_vs_linked_context(p_id bigint)
returns jsonb
language plpgsql stable
security definer
set search_path = ''
as $$
declare v public.vs_tickets;
begin
  select * into v from public.vs_tickets
   where id = p_id and deleted_at is null and org_id = private.jwt_org_id();
  if not found
     or not (v.submitter_id = (select auth.uid()) or private.can_handle_vs(v.target_dept)) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return jsonb_build_object(
    'id', v.id,
    'is_duplicate', v.is_duplicate,
    'on_board', private.vs_is_on_board(v),
    'public_title', case when private.vs_is_on_board(v) then v.public_title end,
    'public_comments', case when private.vs_is_on_board(v) then
        (select count(*) from public.vs_public_comments pc where pc.ticket_id = v.id) else 0 end);
end;
$$;

revoke execute on function
  public.get_vs_ticket_by_id(bigint), public.soft_delete_vs_ticket(bigint),
  public.find_similar_vs_tickets(bigint), public.merge_vs_tickets(bigint, bigint),
  public.vs_transfer_dept(bigint, text, jsonb), public.vs_set_public(bigint, boolean, text, text),
  public.get_public_vs_board(), public.get_public_vs_problem(bigint),
  public.vs_post_public_comment(bigint, text), public.get_vs_linked_context(bigint)
  from public, anon, authenticated;
grant execute on function public.get_vs_ticket_by_id(bigint), public.get_public_vs_board(),
  public.get_public_vs_problem(bigint) to anon, authenticated;
grant execute on function public.soft_delete_vs_ticket(bigint), public.find_similar_vs_tickets(bigint),
  public.merge_vs_tickets(bigint, bigint), public.vs_transfer_dept(bigint, text, jsonb),
  public.vs_set_public(bigint, boolean, text, text), public.vs_post_public_comment(bigint, text),
  public.get_vs_linked_context(bigint) to authenticated;
grant execute on function private.vs_remarks_cap() to authenticated;
