-- Campus desk, part 2: VS tickets (identity keys, a generated flag, natural-key categories),
-- public comments, PR tickets keyed by a readable text id.

create table public.vs_categories (
  id text primary key check (id ~ '^[a-z][a-z0-9-]{1,40}$'),
  label text not null,
  is_confidential boolean not null default false,
  public_eligible boolean not null default false
);

create table public.vs_tickets (
  id bigint generated always as identity primary key,
  submitter_id uuid not null default auth.uid() references public.users (id),
  submitter_label text not null,
  target_dept public.dept_code not null references public.departments (code) on update cascade,
  category text references public.vs_categories (id) on update cascade on delete set null,
  status public.vs_status not null default 'open',
  title text not null,
  report text not null,
  is_public boolean not null default false,
  public_title text,
  -- the board's handle: the id is the submitter's tracking capability and is never shown there
  public_ref uuid not null default gen_random_uuid() unique,
  duplicate_of bigint references public.vs_tickets (id) deferrable initially deferred,
  is_duplicate boolean generated always as (duplicate_of is not null) stored,
  tags text[] not null default '{}',
  remarks jsonb not null default '[]' check (jsonb_typeof(remarks) = 'array'),
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint vs_tickets_public_has_headline check (not is_public or coalesce(btrim(public_title), '') <> ''),
  constraint vs_tickets_not_own_duplicate check (duplicate_of is distinct from id)
);
create index vs_tickets_dept_idx on public.vs_tickets (target_dept) where deleted_at is null;

create trigger vs_tickets_touch before update on public.vs_tickets
  for each row execute function private.touch_updated_at();

create table public.vs_public_comments (
  id bigint generated always as identity primary key,
  ticket_id bigint not null references public.vs_tickets (id) on delete cascade,
  author_id uuid references public.users (id),
  body text not null check (length(body) between 1 and 2000),
  created_at timestamptz not null default now()
);

-- Remarks: an append-only list. A submitter may append one entry visible on the ticket
-- and signed with their own label; at most 50 entries per ticket.
create function private.vs_remark_cap() returns int language sql immutable as $$ select 50 $$;

create function private.guard_vs_tickets() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_old_n int := jsonb_array_length(old.remarks);
  v_new_n int := jsonb_array_length(new.remarks);
  v_entry jsonb;
  -- is_duplicate is generated: not yet computed in a BEFORE trigger's NEW
  v_allowed text[] := array['remarks', 'title', 'report', 'updated_at', 'is_duplicate'];
begin
  if v_new_n > private.vs_remark_cap() and v_new_n > v_old_n then
    raise exception 'A ticket holds at most % remarks', private.vs_remark_cap() using errcode = '42501';
  end if;
  if auth.uid() is null then
    return new;
  end if;
  -- append-only: the old entries stay as they were, in order, and none is removed
  if v_new_n < v_old_n
     or coalesce((select jsonb_agg(e order by n) from jsonb_array_elements(new.remarks) with ordinality as t(e, n)
                  where n <= v_old_n), '[]'::jsonb) is distinct from old.remarks then
    raise exception 'Remarks are append-only' using errcode = '42501';
  end if;
  if private.can_handle_vs(old.target_dept) then
    return new;
  end if;
  if old.submitter_id = auth.uid() then
    if (to_jsonb(new) - v_allowed) is distinct from (to_jsonb(old) - v_allowed) then
      raise exception 'Submitters cannot change this field of their ticket' using errcode = '42501';
    end if;
    for v_entry in select e from jsonb_array_elements(new.remarks) with ordinality as t(e, n) where n > v_old_n loop
      if v_entry ->> 'vis' is distinct from 'ticket'
         or v_entry ->> 'by' is distinct from old.submitter_label
         or coalesce((v_entry ->> 'internal')::boolean, false) then
        raise exception 'A submitter remark must be visible on the ticket and signed by its submitter'
          using errcode = '42501';
      end if;
    end loop;
  end if;
  return new;
end $$;

create trigger vs_tickets_guard before update on public.vs_tickets
  for each row execute function private.guard_vs_tickets();

-- A new ticket is filed plain: a submitter cannot file it public, tagged or as a duplicate.
create function private.guard_vs_ticket_filing() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if auth.uid() is null or private.can_handle_vs(new.target_dept) then
    return new;
  end if;
  if new.is_public or new.public_title is not null or new.duplicate_of is not null
     or new.tags <> '{}' or new.status <> 'open' or new.remarks <> '[]'::jsonb or new.deleted_at is not null then
    raise exception 'A new ticket is filed open and private' using errcode = '42501';
  end if;
  return new;
end $$;

create trigger vs_tickets_filing before insert on public.vs_tickets
  for each row execute function private.guard_vs_ticket_filing();

alter table public.vs_categories enable row level security;
alter table public.vs_tickets enable row level security;
alter table public.vs_public_comments enable row level security;

create policy vs_categories_read on public.vs_categories for select to anon, authenticated using (true);
create policy vs_categories_write on public.vs_categories for all to authenticated
  using (private.is_admin()) with check (private.is_admin());

create policy vs_tickets_read on public.vs_tickets for select to authenticated
  using (deleted_at is null and (submitter_id = auth.uid() or private.can_handle_vs(target_dept)));
create policy vs_tickets_file on public.vs_tickets for insert to authenticated
  with check (submitter_id = auth.uid() and private.current_role() is not null and deleted_at is null);
create policy vs_tickets_update on public.vs_tickets for update to authenticated
  using (deleted_at is null and (submitter_id = auth.uid() or private.can_handle_vs(target_dept)))
  with check (deleted_at is null and (submitter_id = auth.uid() or private.can_handle_vs(target_dept)));
-- No DELETE policy: soft delete only, through soft_delete_vs_ticket. The function re-checks this:
create function private.may_delete_vs_ticket(p_dept text) returns boolean
language sql stable security definer set search_path = '' as $$
  select private.is_staff() and private.can_handle_vs(p_dept)
$$;

-- Public comments: readable where the ticket is on the public board (function), written through
-- vs_post_public_comment only.
create policy vs_public_comments_none on public.vs_public_comments for select to authenticated using (false);

-- Submitter-facing view: an allow-list of columns, internal remarks filtered, invoker's rights.
create view public.my_vs_tickets with (security_invoker = true) as
  select t.id, t.target_dept, t.category, t.status, t.title, t.report, t.is_public, t.public_title,
         t.is_duplicate, t.created_at, t.updated_at,
         coalesce((select jsonb_agg(e order by n) from jsonb_array_elements(t.remarks) with ordinality as r(e, n)
                   where not coalesce((e ->> 'internal')::boolean, false)), '[]'::jsonb) as remarks
  from public.vs_tickets t
  where t.submitter_id = auth.uid() and t.deleted_at is null;

-- PR tickets: a readable id 'PR-000123', drawn from a sequence; guests file them too.
create sequence public.pr_ticket_seq;
create table public.pr_tickets (
  id text primary key default ('PR-' || lpad(nextval('public.pr_ticket_seq')::text, 6, '0'))
    check (id = upper(btrim(id)) and id !~ '[%_\\]'),
  submitter_id uuid default auth.uid() references public.users (id),
  submitter_label text not null,
  brief text not null,
  file_url text,
  status public.pr_status not null default 'received',
  deleted_at timestamptz,
  created_at timestamptz not null default now()
);

create function private.guard_pr_tickets() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  v_allowed text[] := array['brief', 'file_url'];
begin
  if auth.uid() is null or private.is_pr_handler() then
    return new;
  end if;
  if old.submitter_id = auth.uid()
     and (to_jsonb(new) - v_allowed) is distinct from (to_jsonb(old) - v_allowed) then
    raise exception 'Submitters cannot change this field of their PR ticket' using errcode = '42501';
  end if;
  return new;
end $$;
create trigger pr_tickets_guard before update on public.pr_tickets
  for each row execute function private.guard_pr_tickets();

alter table public.pr_tickets enable row level security;
create policy pr_tickets_read on public.pr_tickets for select to authenticated
  using (deleted_at is null and (submitter_id = auth.uid() or private.is_pr_handler()));
create policy pr_tickets_file_guest on public.pr_tickets for insert to anon
  with check (submitter_id is null and deleted_at is null and status = 'received');
create policy pr_tickets_file on public.pr_tickets for insert to authenticated
  with check (deleted_at is null and (
    (submitter_id = auth.uid() and status = 'received') or private.is_pr_handler()));
create policy pr_tickets_update on public.pr_tickets for update to authenticated
  using (deleted_at is null and (submitter_id = auth.uid() or private.is_pr_handler()))
  with check (deleted_at is null and (submitter_id = auth.uid() or private.is_pr_handler()));
