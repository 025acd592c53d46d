-- VS (voice of students) tickets: categories, tickets with remarks, public board comments.

create table app.vs_categories (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 48),
  name text not null check (char_length(btrim(name)) between 1 and 80),
  is_confidential boolean not null default false,
  public_eligible boolean not null default false,
  created_at timestamptz not null default now()
);

create table app.vs_tickets (
  id uuid primary key default gen_random_uuid(),
  submitter_id uuid not null default auth.uid() references app.users (id) on delete cascade,
  submitter_label text not null check (char_length(btrim(submitter_label)) between 1 and 80),
  target_dept text not null check (target_dept ~ '^[A-Z]{2,10}$'),
  category_id uuid references app.vs_categories (id) on delete set null,
  status text not null default 'open'
    check (status in ('open', 'in_progress', 'waiting', 'resolved', 'closed')),
  body text not null check (char_length(btrim(body)) between 1 and 5000),
  is_public boolean not null default false,
  public_title text check (public_title is null or char_length(btrim(public_title)) between 3 and 140),
  duplicate_of uuid references app.vs_tickets (id) on delete set null,
  is_duplicate boolean generated always as (duplicate_of is not null) stored,
  tags text[] not null default '{}' check (cardinality(tags) <= 20),
  -- [{ "at": timestamptz, "by": label, "vis": "ticket" | "staff", "internal": bool, "text": ... }]
  remarks jsonb not null default '[]'::jsonb
    check (jsonb_typeof(remarks) = 'array' and jsonb_array_length(remarks) <= 50),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  deleted_by uuid references app.users (id) on delete set null,
  check (duplicate_of is distinct from id),
  -- A ticket on the board always carries a staff headline.
  check (not is_public or public_title is not null)
);

create index vs_tickets_dept_idx on app.vs_tickets (target_dept) where deleted_at is null;
create index vs_tickets_submitter_idx on app.vs_tickets (submitter_id) where deleted_at is null;

create trigger vs_tickets_touch before update on app.vs_tickets
  for each row execute function private.touch_updated_at();
create trigger vs_tickets_audit after insert or update or delete on app.vs_tickets
  for each row execute function audit.capture();

create table app.vs_public_comments (
  id uuid primary key default gen_random_uuid(),
  ticket_id uuid not null references app.vs_tickets (id) on delete cascade,
  author_id uuid not null default auth.uid() references app.users (id) on delete cascade,
  body text not null check (char_length(btrim(body)) between 1 and 1000),
  created_at timestamptz not null default now()
);

-- ---------------------------------------------------------------------------------------------
-- One predicate for "this ticket is on the public board", used by every board function.
-- A category that does not resolve counts as confidential and not eligible.
-- ---------------------------------------------------------------------------------------------
create or replace function private.vs_on_public_board(p_ticket_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((
    select t.is_public
       and t.deleted_at is null
       and t.public_title is not null
       and btrim(t.public_title) <> ''
       and c.id is not null
       and not c.is_confidential
       and c.public_eligible
    from app.vs_tickets t
    left join app.vs_categories c on c.id = t.category_id
    where t.id = p_ticket_id), false);
$$;

create or replace function private.is_vs_submitter(p_ticket_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select auth.uid()) is not null and exists (
    select 1 from app.vs_tickets t
    where t.id = p_ticket_id and t.submitter_id = (select auth.uid()) and t.deleted_at is null),
    false);
$$;

grant execute on function private.vs_on_public_board(uuid), private.is_vs_submitter(uuid)
  to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Row security
-- ---------------------------------------------------------------------------------------------
alter table app.vs_categories enable row level security;
alter table app.vs_tickets enable row level security;
alter table app.vs_public_comments enable row level security;

create policy vs_categories_read on app.vs_categories for select to anon, authenticated
  using (true);
create policy vs_categories_write on app.vs_categories for all to authenticated
  using (private.is_admin()) with check (private.is_admin());

create policy vs_tickets_read on app.vs_tickets for select to authenticated
  using (deleted_at is null
         and (submitter_id = (select auth.uid()) or private.can_handle_vs(target_dept)));

create policy vs_tickets_insert_own on app.vs_tickets for insert to authenticated
  with check (submitter_id = (select auth.uid())
              and status = 'open'
              and not is_public
              and public_title is null
              and duplicate_of is null
              and tags = '{}'
              and deleted_at is null);

create policy vs_tickets_insert_handler on app.vs_tickets for insert to authenticated
  with check (private.can_handle_vs(target_dept) and deleted_at is null);

create policy vs_tickets_update on app.vs_tickets for update to authenticated
  using (deleted_at is null
         and (submitter_id = (select auth.uid()) or private.can_handle_vs(target_dept)))
  with check (deleted_at is null
              and (submitter_id = (select auth.uid()) or private.can_handle_vs(target_dept)));

-- No delete policy: tickets are soft deleted through api.soft_delete_vs_ticket.

create policy vs_public_comments_read on app.vs_public_comments for select to anon, authenticated
  using (private.vs_on_public_board(ticket_id));

grant select on app.vs_categories to anon, authenticated;
grant insert, update, delete on app.vs_categories to authenticated;
grant select, insert, update on app.vs_tickets to authenticated;
grant select on app.vs_public_comments to anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Guard: a submitter who is not a handler changes only body and appends remarks.
-- deleted_at is never changed by a direct write of an API role: only the definer rpc may.
-- ---------------------------------------------------------------------------------------------
create or replace function private.guard_vs_ticket_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_old_len integer := jsonb_array_length(old.remarks);
  v_new_len integer := jsonb_array_length(new.remarks);
  v_entry jsonb;
begin
  if (select auth.uid()) is null then
    return new;
  end if;

  if new.deleted_at is distinct from old.deleted_at
     and current_user in ('anon', 'authenticated') then
    raise exception 'tickets are deleted through soft_delete_vs_ticket'
      using errcode = '42501';
  end if;

  if private.can_handle_vs(old.target_dept) then
    return new;
  end if;

  if (to_jsonb(new) - array['body', 'remarks', 'updated_at', 'is_duplicate'])
     is distinct from (to_jsonb(old) - array['body', 'remarks', 'updated_at', 'is_duplicate']) then
    raise exception 'submitters may only edit the report text and add remarks'
      using errcode = '42501';
  end if;

  if v_new_len < v_old_len then
    raise exception 'remarks are append-only' using errcode = '42501';
  end if;
  for i in 0 .. v_old_len - 1 loop
    if (new.remarks -> i) is distinct from (old.remarks -> i) then
      raise exception 'remarks are append-only' using errcode = '42501';
    end if;
  end loop;
  for i in v_old_len .. v_new_len - 1 loop
    v_entry := new.remarks -> i;
    if jsonb_typeof(v_entry) <> 'object'
       or (v_entry ->> 'vis') is distinct from 'ticket'
       or (v_entry ->> 'by') is distinct from old.submitter_label
       or coalesce((v_entry ->> 'internal')::boolean, false) then
      raise exception 'a remark you add must be visible on the ticket and signed with your label'
        using errcode = '42501';
    end if;
  end loop;
  return new;
end;
$$;

create trigger vs_tickets_guard before update on app.vs_tickets
  for each row execute function private.guard_vs_ticket_update();

-- Remarks a submitter may see: never internal ones, never staff-only ones.
create or replace function private.submitter_remarks(p_remarks jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce(jsonb_agg(e order by n), '[]'::jsonb)
  from jsonb_array_elements(p_remarks) with ordinality as r (e, n)
  where not coalesce((e ->> 'internal')::boolean, false)
    and coalesce(e ->> 'vis', 'ticket') = 'ticket';
$$;
grant execute on function private.submitter_remarks(jsonb) to anon, authenticated, service_role;
