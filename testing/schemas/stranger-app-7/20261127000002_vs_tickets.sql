-- Voice-of-students (VS) tickets, their categories and the public board comments.

create table public.vs_categories (
  id bigint generated always as identity primary key,
  slug text not null unique check (slug ~ '^[a-z0-9-]+$'),
  name text not null,
  is_confidential boolean not null default false,
  public_eligible boolean not null default false,
  created_at timestamptz not null default now()
);

create table public.vs_tickets (
  id bigint generated always as identity primary key,
  submitter_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  submitter_label text not null check (char_length(submitter_label) between 1 and 80),
  target_dept text not null check (target_dept ~ '^[A-Z]{2,6}$'),
  status text not null default 'open'
    check (status in ('open', 'in_progress', 'waiting', 'resolved', 'closed')),
  category_id bigint references public.vs_categories (id) on delete set null,
  title text not null check (char_length(title) between 1 and 200),
  body text not null default '',
  is_public boolean not null default false,
  public_title text,
  duplicate_of bigint references public.vs_tickets (id) on delete set null,
  is_duplicate boolean generated always as (duplicate_of is not null) stored,
  tags text[] not null default '{}',
  remarks jsonb not null default '[]'::jsonb,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint vs_tickets_not_own_duplicate check (duplicate_of is distinct from id),
  constraint vs_tickets_remarks_array check (jsonb_typeof(remarks) = 'array'),
  -- Remarks cap: 50 entries per ticket.
  constraint vs_tickets_remarks_cap check (jsonb_array_length(remarks) <= 50),
  -- A public ticket always carries the staff-written headline.
  constraint vs_tickets_public_needs_title
    check (not is_public or coalesce(btrim(public_title), '') <> '')
);

create index vs_tickets_submitter_idx on public.vs_tickets (submitter_id);
create index vs_tickets_dept_idx on public.vs_tickets (target_dept) where deleted_at is null;

create trigger vs_tickets_updated_at
  before update on public.vs_tickets
  for each row execute procedure extensions.moddatetime (updated_at);

-- Public thread under a published ticket. seq numbers comments per ticket.
create table public.vs_public_comments (
  id bigint generated always as identity primary key,
  ticket_id bigint not null references public.vs_tickets (id) on delete cascade,
  seq integer not null,
  author_id uuid references public.profiles (id) on delete set null,
  author_label text not null,
  body text not null check (char_length(body) between 1 and 2000),
  created_at timestamptz not null default now(),
  unique (ticket_id, seq)
);

-- ---------------------------------------------------------------------------------------------
-- Visibility helpers shared by every public path (rule 13: all agree on the unknown category).
-- ---------------------------------------------------------------------------------------------
create or replace function public.vs_category_is_publishable(p_category_id bigint)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select not c.is_confidential and c.public_eligible
       from public.vs_categories c
      where c.id = p_category_id),
    false
  );
$$;

create or replace function public.vs_ticket_on_board(t public.vs_tickets)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select t.deleted_at is null
     and t.is_public
     and coalesce(btrim(t.public_title), '') <> ''
     and public.vs_category_is_publishable(t.category_id);
$$;

-- The DELETE policy and soft_delete_vs_ticket share this predicate.
create or replace function public.can_delete_vs_ticket(p_target_dept text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select public.current_user_is_staff() and public.can_handle_vs(p_target_dept);
$$;

-- ---------------------------------------------------------------------------------------------
-- Row security
-- ---------------------------------------------------------------------------------------------
alter table public.vs_categories enable row level security;
alter table public.vs_tickets enable row level security;
alter table public.vs_public_comments enable row level security;

create policy "Anyone reads categories"
  on public.vs_categories for select to anon, authenticated
  using (true);

create policy "Admins manage categories"
  on public.vs_categories for all to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

create policy "Submitters read their own tickets"
  on public.vs_tickets for select to authenticated
  using (deleted_at is null and submitter_id = (select auth.uid()));

create policy "Handlers read their department's tickets"
  on public.vs_tickets for select to authenticated
  using (deleted_at is null and public.can_handle_vs(target_dept));

create policy "Signed-in users submit tickets"
  on public.vs_tickets for insert to authenticated
  with check (
    submitter_id = (select auth.uid())
    and status = 'open'
    and not is_public
    and public_title is null
    and duplicate_of is null
    and tags = '{}'
    and deleted_at is null
  );

create policy "Handlers file tickets for their department"
  on public.vs_tickets for insert to authenticated
  with check (public.can_handle_vs(target_dept) and deleted_at is null);

create policy "Submitters update their own tickets"
  on public.vs_tickets for update to authenticated
  using (deleted_at is null and submitter_id = (select auth.uid()))
  with check (deleted_at is null and submitter_id = (select auth.uid()));

create policy "Handlers update their department's tickets"
  on public.vs_tickets for update to authenticated
  using (deleted_at is null and public.can_handle_vs(target_dept))
  with check (deleted_at is null and public.can_handle_vs(target_dept));

create policy "Staff handlers delete tickets"
  on public.vs_tickets for delete to authenticated
  using (public.can_delete_vs_ticket(target_dept));

create policy "Anyone reads comments on board tickets"
  on public.vs_public_comments for select to anon, authenticated
  using (exists (
    select 1 from public.vs_tickets t
     where t.id = ticket_id and public.vs_ticket_on_board(t)
  ));

-- Comments are written through vs_post_public_comment only.

-- ---------------------------------------------------------------------------------------------
-- Submitter guard (rules 1 and 3)
-- ---------------------------------------------------------------------------------------------
create or replace function public.guard_vs_ticket_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  allowed text[] := array['title', 'body', 'remarks', 'updated_at', 'is_duplicate'];
  old_len integer := jsonb_array_length(old.remarks);
  entry jsonb;
  i integer;
begin
  if (select auth.uid()) is null then
    return new;
  end if;

  -- Remarks are append-only for every signed-in writer, handlers included (rule 3) ...
  if jsonb_typeof(new.remarks) <> 'array' or jsonb_array_length(new.remarks) < old_len then
    raise exception 'remarks are append-only' using errcode = '42501';
  end if;
  for i in 0 .. old_len - 1 loop
    if new.remarks -> i is distinct from old.remarks -> i then
      raise exception 'remarks are append-only' using errcode = '42501';
    end if;
  end loop;

  if public.can_handle_vs(old.target_dept)
     or public.current_user_is_admin()
     or old.submitter_id is distinct from (select auth.uid()) then
    return new;
  end if;

  if (to_jsonb(new) - allowed) is distinct from (to_jsonb(old) - allowed) then
    raise exception 'submitters can only edit the title, body and remarks of their ticket'
      using errcode = '42501';
  end if;

  -- ... and what they append is a ticket-visible remark in their own name.
  for entry in select e from jsonb_array_elements(new.remarks) with ordinality as x(e, n) where n > old_len loop
    if jsonb_typeof(entry) <> 'object'
       or entry ->> 'vis' is distinct from 'ticket'
       or entry ->> 'by' is distinct from old.submitter_label
       or coalesce(entry ->> 'internal', 'false') <> 'false' then
      raise exception 'a submitter remark must have vis "ticket" and be signed with the submitter label'
        using errcode = '42501';
    end if;
  end loop;

  return new;
end;
$$;

create trigger vs_tickets_guard
  before update on public.vs_tickets
  for each row execute procedure public.guard_vs_ticket_update();

grant select on table public.vs_categories to anon, authenticated;
grant insert, update, delete on table public.vs_categories to authenticated;
grant select, insert, update, delete on table public.vs_tickets to authenticated;
grant select on table public.vs_public_comments to anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- RPCs
-- ---------------------------------------------------------------------------------------------

-- Guest tracking by exact id; the row comes back sanitized (rule 12).
create or replace function public.get_vs_ticket_by_id(p_id bigint)
returns setof public.vs_tickets
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.submitter_id, t.submitter_label, t.target_dept, t.status, t.category_id,
         t.title, t.body, t.is_public, t.public_title,
         null::bigint as duplicate_of,
         t.is_duplicate,
         '{}'::text[] as tags,
         coalesce(
           (select jsonb_agg(r order by n)
              from jsonb_array_elements(t.remarks) with ordinality as x(r, n)
             where coalesce(r ->> 'internal', 'false') = 'false'
               and coalesce(r ->> 'vis', 'ticket') <> 'internal'),
           '[]'::jsonb
         ) as remarks,
         t.deleted_at, t.created_at, t.updated_at
    from public.vs_tickets t
   where t.id = p_id
     and t.deleted_at is null;
$$;

create or replace function public.soft_delete_vs_ticket(p_id bigint)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  dept text;
begin
  if (select auth.uid()) is null or public.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;

  select target_dept into dept
    from public.vs_tickets
   where id = p_id and deleted_at is null
     for update;
  if not found then
    raise exception 'ticket not found' using errcode = 'P0002';
  end if;
  if not public.can_delete_vs_ticket(dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;

  update public.vs_tickets set deleted_at = now() where id = p_id;
end;
$$;

create or replace function public.find_similar_vs_tickets(p_id bigint)
returns setof public.vs_tickets
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  src public.vs_tickets;
begin
  select * into src from public.vs_tickets where id = p_id and deleted_at is null;
  if not found or not public.can_handle_vs(src.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;

  return query
    select t.*
      from public.vs_tickets t
     where t.id <> src.id
       and t.deleted_at is null
       and public.can_handle_vs(t.target_dept)
       and (t.category_id is not distinct from src.category_id
            or lower(t.title) = lower(src.title))
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
  prim public.vs_tickets;
  dup public.vs_tickets;
begin
  select * into prim from public.vs_tickets where id = p_primary and deleted_at is null;
  select * into dup from public.vs_tickets where id = p_duplicate and deleted_at is null for update;
  if prim.id is null or dup.id is null or prim.id = dup.id then
    raise exception 'both tickets must exist and differ' using errcode = '22023';
  end if;
  if not (public.can_handle_vs(prim.target_dept) and public.can_handle_vs(dup.target_dept)) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if prim.target_dept <> dup.target_dept then
    raise exception 'cannot merge tickets of different departments' using errcode = '22023';
  end if;

  return query
    update public.vs_tickets
       set duplicate_of = prim.id,
           status = 'closed',
           remarks = remarks || jsonb_build_array(
             jsonb_build_object('vis', 'internal', 'by', 'system', 'internal', true,
                                'text', 'Merged into #' || prim.id, 'at', now()),
             jsonb_build_object('vis', 'ticket', 'by', 'system', 'internal', false,
                                'text', 'This report was closed because the same problem is already being handled.',
                                'at', now())
           )
     where id = dup.id
    returning *;
end;
$$;

create or replace function public.vs_transfer_dept(p_id bigint, p_dept text, p_remarks jsonb default '[]'::jsonb)
returns setof public.vs_tickets
language plpgsql
security definer
set search_path = ''
as $$
declare
  t public.vs_tickets;
begin
  if p_dept is null or btrim(p_dept) = '' then
    raise exception 'a destination department is required' using errcode = '22023';
  end if;
  if p_remarks is null or jsonb_typeof(p_remarks) <> 'array' then
    raise exception 'p_remarks must be a json array' using errcode = '22023';
  end if;

  select * into t from public.vs_tickets where id = p_id and deleted_at is null for update;
  if not found or not public.can_handle_vs(t.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;

  return query
    update public.vs_tickets
       set target_dept = upper(btrim(p_dept)),
           remarks = remarks || p_remarks
     where id = t.id
    returning *;
end;
$$;

create or replace function public.vs_set_public(p_id bigint, p_public boolean, p_public_title text default null)
returns setof public.vs_tickets
language plpgsql
security definer
set search_path = ''
as $$
declare
  t public.vs_tickets;
begin
  select * into t from public.vs_tickets where id = p_id and deleted_at is null for update;
  if not found or not public.can_handle_vs(t.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if p_public then
    if not public.vs_category_is_publishable(t.category_id) then
      raise exception 'this ticket''s category cannot be published' using errcode = '22023';
    end if;
    if coalesce(btrim(coalesce(p_public_title, t.public_title)), '') = '' then
      raise exception 'a public headline is required' using errcode = '22023';
    end if;
  end if;

  return query
    update public.vs_tickets
       set is_public = coalesce(p_public, false),
           public_title = coalesce(nullif(btrim(p_public_title), ''), public_title)
     where id = t.id
    returning *;
end;
$$;

create or replace function public.get_public_vs_board()
returns table (id bigint, public_title text, category text, status text, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.public_title, c.name, t.status, t.created_at
    from public.vs_tickets t
    join public.vs_categories c on c.id = t.category_id
   where public.vs_ticket_on_board(t)
   order by t.created_at desc;
$$;

create or replace function public.get_public_vs_problem(p_id bigint)
returns table (id bigint, public_title text, category text, status text, created_at timestamptz,
               comments jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.public_title, c.name, t.status, t.created_at,
         coalesce((select jsonb_agg(jsonb_build_object('seq', m.seq, 'by', m.author_label,
                                                       'body', m.body, 'at', m.created_at)
                                    order by m.seq)
                     from public.vs_public_comments m
                    where m.ticket_id = t.id), '[]'::jsonb)
    from public.vs_tickets t
    join public.vs_categories c on c.id = t.category_id
   where t.id = p_id
     and public.vs_ticket_on_board(t);
$$;

create or replace function public.vs_post_public_comment(p_id bigint, p_body text)
returns public.vs_public_comments
language plpgsql
security definer
set search_path = ''
as $$
declare
  t public.vs_tickets;
  label text;
  c public.vs_public_comments;
begin
  if (select auth.uid()) is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select * into t from public.vs_tickets where id = p_id for update;
  if not found or not public.vs_ticket_on_board(t) then
    raise exception 'ticket not found' using errcode = 'P0002';
  end if;
  select coalesce(nullif(display_name, ''), 'member') into label
    from public.profiles where id = (select auth.uid());

  insert into public.vs_public_comments (ticket_id, seq, author_id, author_label, body)
  values (
    t.id,
    coalesce((select max(seq) from public.vs_public_comments where ticket_id = t.id), 0) + 1,
    (select auth.uid()),
    coalesce(label, 'member'),
    p_body
  )
  returning * into c;
  return c;
end;
$$;

-- Submitter tracking: what is linked to my ticket, without the duplicate's id (rule 12).
create or replace function public.get_vs_linked_context(p_id bigint)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  t public.vs_tickets;
  staff_view boolean;
begin
  select * into t from public.vs_tickets where id = p_id and deleted_at is null;
  if not found then
    return null;
  end if;
  staff_view := public.can_handle_vs(t.target_dept);
  if not staff_view and t.submitter_id is distinct from (select auth.uid()) then
    -- Anyone else sees only what the public board shows.
    if not public.vs_ticket_on_board(t) then
      return null;
    end if;
    return jsonb_build_object('id', t.id, 'status', t.status, 'is_duplicate', t.is_duplicate,
                              'public', true);
  end if;
  return jsonb_build_object(
    'id', t.id,
    'status', t.status,
    'is_duplicate', t.is_duplicate,
    'public', public.vs_ticket_on_board(t),
    'duplicate_of', case when staff_view then t.duplicate_of end,
    'duplicates', case when staff_view then
      (select coalesce(jsonb_agg(d.id), '[]'::jsonb) from public.vs_tickets d
        where d.duplicate_of = t.id and d.deleted_at is null) end
  );
end;
$$;
