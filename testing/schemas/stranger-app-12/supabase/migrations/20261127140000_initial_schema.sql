-- Generated from supabase/schemas/*.sql (supabase db diff -f initial_schema) and the
-- seed rows of the vocabulary tables added by hand (db diff does not carry DML).

-- 00_extensions.sql
-- Extensions live in their own schema, as Supabase recommends.
create schema if not exists extensions;
create extension if not exists btree_gist with schema extensions;
create extension if not exists citext with schema extensions;

-- 01_types.sql
-- Vocabularies. Enums where the set is closed; transitions are data, not code.

create type public.app_role as enum (
  'user', 'dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'sa_prof', 'admin'
);

create type public.app_permission as enum ('vs', 'pr', 'house', 'master');

create type public.vs_status as enum ('open', 'triaged', 'in_progress', 'resolved', 'closed');

create type public.order_status as enum (
  'pending', 'review', 'slip_mismatch', 'paid', 'shipped', 'completed', 'cancelled'
);

create type public.team_node_kind as enum ('org', 'division', 'team', 'seat');

create type public.change_verdict as enum ('pending', 'approved', 'rejected');

create type public.sign_request_state as enum ('requested', 'signed', 'declined');

-- Which status may follow which. A trigger on vs_tickets reads it.
create table public.vs_status_transitions (
  from_status public.vs_status not null,
  to_status   public.vs_status not null,
  primary key (from_status, to_status),
  constraint vs_status_transitions_not_self check (from_status <> to_status)
);

insert into public.vs_status_transitions (from_status, to_status) values
  ('open', 'triaged'), ('open', 'closed'),
  ('triaged', 'in_progress'), ('triaged', 'closed'),
  ('in_progress', 'resolved'), ('in_progress', 'triaged'),
  ('resolved', 'closed'), ('resolved', 'in_progress'),
  ('closed', 'open');

alter table public.vs_status_transitions enable row level security;

create policy "transitions are readable by signed-in users"
  on public.vs_status_transitions for select to authenticated using (true);

-- Which order status a buyer may leave an order in.
create table public.order_status_transitions (
  from_status public.order_status not null,
  to_status   public.order_status not null,
  primary key (from_status, to_status)
);

insert into public.order_status_transitions (from_status, to_status) values
  ('pending', 'review'), ('review', 'slip_mismatch'), ('slip_mismatch', 'review'),
  ('review', 'paid'), ('paid', 'shipped'), ('shipped', 'completed'),
  ('pending', 'cancelled'), ('review', 'cancelled'), ('slip_mismatch', 'cancelled');

alter table public.order_status_transitions enable row level security;

create policy "order transitions are readable by signed-in users"
  on public.order_status_transitions for select to authenticated using (true);

-- 02_users.sql
-- Departments and the application's users.

create table public.departments (
  code       text primary key,
  name       text not null,
  constraint departments_code_format check (code ~ '^[A-Z]{2,8}$'),
  constraint departments_name_not_blank check (btrim(name) <> '')
);

insert into public.departments (code, name) values
  ('SE', 'Student Engagement'), ('IT', 'Information Technology'),
  ('FIN', 'Finance'), ('REG', 'Registrar');

alter table public.departments enable row level security;

create policy "departments are public"
  on public.departments for select to anon, authenticated using (true);

create table public.users (
  id                  uuid primary key references auth.users (id) on delete cascade,
  email               extensions.citext not null,
  display_name        text not null default '',
  role                public.app_role not null default 'user',
  department          text references public.departments (code)
                        on update cascade on delete restrict
                        deferrable initially deferred,
  permissions         public.app_permission[] not null default '{}',
  managed_permissions public.app_permission[] not null default '{}',
  created_at          timestamptz not null default now(),
  updated_at          timestamptz not null default now(),
  constraint users_email_unique unique (email),
  constraint users_email_format check (email ~ '^[^@\s]+@[^@\s]+$'),
  constraint users_display_name_length check (char_length(display_name) <= 80),
  -- Handlers and dept-scoped admins must belong to a department.
  constraint users_scoped_role_has_department
    check (role not in ('vs_staff', 'vp_admin') or department is not null)
);

alter table public.users enable row level security;

-- Creates the application row at sign-up.
create or replace function public.handle_new_auth_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.users (id, email, display_name)
  values (
    new.id,
    coalesce(new.email, new.id::text || '@invalid.local'),
    coalesce(new.raw_user_meta_data ->> 'display_name', '')
  )
  on conflict (id) do nothing;
  return new;
end;
$$;

create or replace trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.handle_new_auth_user();

-- updated_at, shared by every table that has one.
create or replace function public.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

create or replace trigger users_touch_updated_at
  before update on public.users
  for each row execute function public.touch_updated_at();

-- Helpers the policies call. Definer so that a policy never depends on users' own rules (rule 17).

create or replace function public.current_user_role()
returns public.app_role
language sql
stable
security definer
set search_path = ''
as $$
  select u.role from public.users u where u.id = auth.uid();
$$;

create or replace function public.current_user_dept()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select u.department from public.users u where u.id = auth.uid();
$$;

create or replace function public.current_user_is_staff()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select u.role in ('dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'admin')
       from public.users u where u.id = auth.uid()),
    false);
$$;

create or replace function public.current_user_is_admin()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select u.role in ('dev', 'vp_admin', 'admin') from public.users u where u.id = auth.uid()),
    false);
$$;

create or replace function public.current_user_has_permission(p_permission public.app_permission)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select p_permission = any (u.permissions || u.managed_permissions)
       from public.users u where u.id = auth.uid()),
    false);
$$;

-- A VS handler for a department: global handlers see all, vp_admin only their own (rule 9).
create or replace function public.current_user_can_handle_vs(p_dept text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select case
              when u.role in ('dev', 'admin') then true
              when u.role = 'vs_staff' then true
              when u.role = 'vp_admin' then p_dept is not null and p_dept = u.department
              else false
            end
       from public.users u where u.id = auth.uid()),
    false);
$$;

create or replace function public.current_user_is_project_actor()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select u.role in ('dev', 'admin', 'uni_staff', 'sa_prof') from public.users u where u.id = auth.uid()),
    false);
$$;

-- Rule 1: the owner guard. Whole row minus an allow-list; server contexts pass.
create or replace function public.users_guard_owner_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  allowed constant text[] := array['display_name', 'updated_at'];
begin
  if auth.uid() is null then
    return new;
  end if;
  if public.current_user_is_admin() then
    return new;
  end if;
  if (to_jsonb(new) - allowed) is distinct from (to_jsonb(old) - allowed) then
    raise exception 'users: only display_name may be changed by its owner'
      using errcode = '42501';
  end if;
  return new;
end;
$$;

create or replace trigger users_guard_owner_update
  before update on public.users
  for each row execute function public.users_guard_owner_update();

create policy "users read themselves"
  on public.users for select to authenticated
  using (id = (select auth.uid()));

create policy "staff read users"
  on public.users for select to authenticated
  using ((select public.current_user_is_staff()));

create policy "users update themselves"
  on public.users for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

create policy "admins update users"
  on public.users for update to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

-- 03_vs_tickets.sql
-- VS tickets: a student reports a problem to a department.

create table public.vs_categories (
  id              integer generated always as identity primary key,
  name            text not null,
  is_confidential boolean not null default false,
  public_eligible boolean not null default false,
  constraint vs_categories_name_unique unique (name),
  -- A confidential category is never eligible for the public board.
  constraint vs_categories_confidential_not_public check (not (is_confidential and public_eligible))
);

alter table public.vs_categories enable row level security;

create policy "categories are readable"
  on public.vs_categories for select to anon, authenticated using (true);

create policy "admins manage categories"
  on public.vs_categories for all to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

-- One running ticket number per department.
create table public.vs_department_counters (
  department  text primary key references public.departments (code) on delete restrict,
  last_number integer not null default 0,
  constraint vs_department_counters_non_negative check (last_number >= 0)
);

alter table public.vs_department_counters enable row level security;
-- No policies: only the definer trigger below touches it.

create table public.vs_tickets (
  id              bigint generated always as identity primary key,
  number          integer not null,
  submitter_id    uuid not null references public.users (id) on delete restrict,
  submitter_label text not null,
  target_dept     text not null references public.departments (code)
                    on update cascade on delete restrict deferrable initially deferred,
  category_id     integer references public.vs_categories (id) on delete restrict,
  status          public.vs_status not null default 'open',
  title           text not null,
  body            text not null,
  is_public       boolean not null default false,
  public_title    text,
  duplicate_of    bigint references public.vs_tickets (id) on delete restrict
                    deferrable initially deferred,
  is_duplicate    boolean generated always as (duplicate_of is not null) stored,
  tags            text[] not null default '{}',
  remarks         jsonb not null default '[]'::jsonb,
  created_at      timestamptz not null default now(),
  closed_at       timestamptz,
  deleted_at      timestamptz,
  updated_at      timestamptz not null default now(),
  constraint vs_tickets_department_number unique (target_dept, number),
  constraint vs_tickets_title_length check (char_length(btrim(title)) between 3 and 200),
  constraint vs_tickets_not_self_duplicate check (duplicate_of is null or duplicate_of <> id),
  constraint vs_tickets_public_needs_headline
    check (not is_public or (public_title is not null and btrim(public_title) <> '')),
  constraint vs_tickets_closed_after_created check (closed_at is null or closed_at >= created_at),
  constraint vs_tickets_closed_agrees_with_status
    check ((status in ('resolved', 'closed')) = (closed_at is not null)),
  constraint vs_tickets_remarks_is_array check (jsonb_typeof(remarks) = 'array'),
  constraint vs_tickets_remarks_cap check (jsonb_array_length(remarks) <= 50),
  constraint vs_tickets_tags_cap check (cardinality(tags) <= 20)
);

create index vs_tickets_submitter_idx on public.vs_tickets (submitter_id);
create index vs_tickets_target_dept_idx on public.vs_tickets (target_dept) where deleted_at is null;

alter table public.vs_tickets enable row level security;

-- Fills the per-department number. Definer: the counters have no policies.
create or replace function public.vs_tickets_assign_number()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.vs_department_counters as c (department, last_number)
  values (new.target_dept, 1)
  on conflict (department) do update set last_number = c.last_number + 1
  returning c.last_number into new.number;
  return new;
end;
$$;

create or replace trigger vs_tickets_assign_number
  before insert on public.vs_tickets
  for each row execute function public.vs_tickets_assign_number();

create or replace trigger vs_tickets_touch_updated_at
  before update on public.vs_tickets
  for each row execute function public.touch_updated_at();

-- Status moves follow vs_status_transitions.
create or replace function public.vs_tickets_check_transition()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.status is distinct from old.status
     and not exists (select 1 from public.vs_status_transitions t
                      where t.from_status = old.status and t.to_status = new.status) then
    raise exception 'vs_tickets: status % cannot follow %', new.status, old.status
      using errcode = '23514';
  end if;
  -- closed_at follows the status, so the CHECK tying them holds without the client's help.
  if new.status in ('resolved', 'closed') and old.status not in ('resolved', 'closed') then
    new.closed_at := greatest(now(), new.created_at);
  elsif new.status not in ('resolved', 'closed') then
    new.closed_at := null;
  end if;
  return new;
end;
$$;

create or replace trigger vs_tickets_check_transition
  before update of status on public.vs_tickets
  for each row execute function public.vs_tickets_check_transition();

-- Rules 1 and 3: a submitter who is not a handler may change only an allow-list, and remarks only
-- by appending entries of their own, visible on the ticket.
create or replace function public.vs_tickets_guard_submitter_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  allowed constant text[] := array['title', 'body', 'remarks', 'updated_at', 'is_duplicate'];
  old_count integer;
  new_count integer;
  entry jsonb;
begin
  if auth.uid() is null then
    return new;
  end if;
  if public.current_user_can_handle_vs(old.target_dept) then
    return new;
  end if;
  if (to_jsonb(new) - allowed) is distinct from (to_jsonb(old) - allowed) then
    raise exception 'vs_tickets: submitters may change only the title, body and remarks'
      using errcode = '42501';
  end if;
  old_count := jsonb_array_length(old.remarks);
  new_count := jsonb_array_length(new.remarks);
  if new_count < old_count then
    raise exception 'vs_tickets: remarks are append-only' using errcode = '42501';
  end if;
  -- The existing entries must be kept exactly, in order.
  for i in 0 .. old_count - 1 loop
    if new.remarks -> i is distinct from old.remarks -> i then
      raise exception 'vs_tickets: remarks are append-only' using errcode = '42501';
    end if;
  end loop;
  for i in old_count .. new_count - 1 loop
    entry := new.remarks -> i;
    if jsonb_typeof(entry) <> 'object'
       or entry ->> 'vis' is distinct from 'ticket'
       or entry ->> 'by' is distinct from old.submitter_label
       or coalesce(entry ->> 'internal', 'false') <> 'false' then
      raise exception 'vs_tickets: a submitter remark must be visible on the ticket and signed by its submitter'
        using errcode = '42501';
    end if;
  end loop;
  return new;
end;
$$;

create or replace trigger vs_tickets_guard_submitter_update
  before update on public.vs_tickets
  for each row execute function public.vs_tickets_guard_submitter_update();

-- Submitters write their own tickets, labelled as themselves, private and undeclared.
create policy "submitters insert their tickets"
  on public.vs_tickets for insert to authenticated
  with check (
    submitter_id = (select auth.uid())
    and not is_public
    and duplicate_of is null
    and status = 'open'
    and cardinality(tags) = 0
    and deleted_at is null
  );

create policy "submitters read their tickets"
  on public.vs_tickets for select to authenticated
  using (submitter_id = (select auth.uid()) and deleted_at is null);

create policy "submitters update their tickets"
  on public.vs_tickets for update to authenticated
  using (submitter_id = (select auth.uid()) and deleted_at is null)
  with check (submitter_id = (select auth.uid()) and deleted_at is null);

create policy "handlers read their department's tickets"
  on public.vs_tickets for select to authenticated
  using (deleted_at is null and public.current_user_can_handle_vs(target_dept));

create policy "handlers update their department's tickets"
  on public.vs_tickets for update to authenticated
  using (deleted_at is null and public.current_user_can_handle_vs(target_dept))
  with check (deleted_at is null and public.current_user_can_handle_vs(target_dept));

-- Soft delete only (rule 7): no DELETE policy, the functions below set deleted_at.

-- Comments on the public board.
create table public.vs_public_comments (
  ticket_id  bigint not null references public.vs_tickets (id) on delete cascade,
  seq        integer not null,
  author_id  uuid not null references public.users (id) on delete restrict,
  body       text not null,
  created_at timestamptz not null default now(),
  primary key (ticket_id, seq),
  constraint vs_public_comments_body_length check (char_length(btrim(body)) between 1 and 2000)
);

alter table public.vs_public_comments enable row level security;
-- No policies: read and written through the board functions.

-- Handlers' on-call rota: one shift at a time per handler.
create table public.vs_handler_shifts (
  id         bigint generated always as identity primary key,
  handler_id uuid not null references public.users (id) on delete cascade,
  department text not null references public.departments (code) on delete restrict,
  during     tstzrange not null,
  constraint vs_handler_shifts_bounded check (not isempty(during) and not lower_inf(during) and not upper_inf(during)),
  constraint vs_handler_shifts_no_overlap
    exclude using gist (handler_id with =, during with &&)
);

alter table public.vs_handler_shifts enable row level security;

create policy "handlers read their department's rota"
  on public.vs_handler_shifts for select to authenticated
  using (public.current_user_can_handle_vs(department));

create policy "admins manage the rota"
  on public.vs_handler_shifts for all to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

-- 04_vs_functions.sql
-- VS ticket functions. Every definer function re-applies the table's scope (rule 9).

-- Rule 12: the columns anyone may read straight from the table. duplicate_of, tags and remarks
-- stay behind functions that sanitize them.
revoke select on public.vs_tickets from anon, authenticated;
grant select (
  id, number, submitter_id, submitter_label, target_dept, category_id, status, title, body,
  is_public, public_title, is_duplicate, created_at, closed_at, deleted_at, updated_at
) on public.vs_tickets to authenticated;

-- Whether a category is fit for the public board. An unknown or null category is not (rule 8).
create or replace function public.vs_category_is_public(p_category_id integer)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select not c.is_confidential and c.public_eligible
       from public.vs_categories c where c.id = p_category_id),
    false);
$$;

-- A submitter's view of a remark list: internal entries removed.
create or replace function public.vs_visible_remarks(p_remarks jsonb)
returns jsonb
language sql
immutable
set search_path = ''
as $$
  select coalesce(jsonb_agg(r order by n), '[]'::jsonb)
    from jsonb_array_elements(p_remarks) with ordinality as e(r, n)
   where coalesce((r ->> 'internal')::boolean, false) = false
     and coalesce(r ->> 'vis', 'ticket') <> 'internal';
$$;

-- Guest lookup by exact id; sanitized (duplicate_of null, tags empty, internal remarks removed).
create or replace function public.get_vs_ticket_by_id(p_id bigint)
returns table (
  id bigint, number integer, target_dept text, status public.vs_status, title text,
  is_public boolean, public_title text, duplicate_of bigint, is_duplicate boolean,
  tags text[], remarks jsonb, created_at timestamptz, closed_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.number, t.target_dept, t.status, t.title, t.is_public, t.public_title,
         null::bigint, t.is_duplicate, '{}'::text[], public.vs_visible_remarks(t.remarks),
         t.created_at, t.closed_at
    from public.vs_tickets t
   where t.id = p_id and t.deleted_at is null;
$$;

-- The signed-in submitter's own tickets, allow-listed.
create or replace function public.get_my_vs_tickets()
returns table (
  id bigint, number integer, target_dept text, status public.vs_status, title text, body text,
  is_public boolean, public_title text, is_duplicate boolean, remarks jsonb,
  created_at timestamptz, closed_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.number, t.target_dept, t.status, t.title, t.body, t.is_public, t.public_title,
         t.is_duplicate, public.vs_visible_remarks(t.remarks), t.created_at, t.closed_at
    from public.vs_tickets t
   where t.submitter_id = auth.uid() and auth.uid() is not null and t.deleted_at is null
   order by t.created_at desc;
$$;

-- A submitter appends a remark to their own ticket (rule 3).
create or replace function public.vs_add_remark(p_id bigint, p_text text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_label text;
begin
  if auth.uid() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if p_text is null or btrim(p_text) = '' then
    raise exception 'a remark needs text' using errcode = '22023';
  end if;
  select t.submitter_label into v_label
    from public.vs_tickets t
   where t.id = p_id and t.submitter_id = auth.uid() and t.deleted_at is null;
  if not found then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  update public.vs_tickets t
     set remarks = t.remarks || jsonb_build_array(jsonb_build_object(
           'vis', 'ticket', 'by', v_label, 'text', p_text, 'at', now()))
   where t.id = p_id;
end;
$$;

-- Rule 7: soft delete re-checks the DELETE scope: handlers of the ticket's department.
create or replace function public.soft_delete_vs_ticket(p_id bigint)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if public.current_user_role() is null or not public.current_user_is_staff() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.vs_tickets t
     set deleted_at = now()
   where t.id = p_id and t.deleted_at is null
     and public.current_user_can_handle_vs(t.target_dept);
  if not found then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
end;
$$;

create or replace function public.find_similar_vs_tickets(p_id bigint)
returns table (id bigint, number integer, target_dept text, title text, status public.vs_status,
               duplicate_of bigint, tags text[])
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_source public.vs_tickets;
begin
  select * into v_source from public.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if not found or not public.current_user_can_handle_vs(v_source.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    select t.id, t.number, t.target_dept, t.title, t.status, t.duplicate_of, t.tags
      from public.vs_tickets t
     where t.id <> v_source.id and t.deleted_at is null
       and public.current_user_can_handle_vs(t.target_dept)
       and (t.category_id is not distinct from v_source.category_id or t.tags && v_source.tags)
     order by t.created_at desc
     limit 20;
end;
$$;

-- Marks p_duplicate as a duplicate of p_primary; both in the caller's scope, same department.
create or replace function public.merge_vs_tickets(p_primary bigint, p_duplicate bigint)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_primary public.vs_tickets;
  v_duplicate public.vs_tickets;
begin
  select * into v_primary from public.vs_tickets t where t.id = p_primary and t.deleted_at is null;
  select * into v_duplicate from public.vs_tickets t where t.id = p_duplicate and t.deleted_at is null;
  if v_primary.id is null or v_duplicate.id is null or v_primary.id = v_duplicate.id then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  if not public.current_user_can_handle_vs(v_primary.target_dept)
     or not public.current_user_can_handle_vs(v_duplicate.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if v_primary.target_dept <> v_duplicate.target_dept then
    raise exception 'cross-department merge' using errcode = '42501';
  end if;
  update public.vs_tickets t
     set duplicate_of = v_primary.id,
         status = case when t.status in ('resolved', 'closed') then t.status else 'closed' end,
         remarks = t.remarks
           || jsonb_build_array(
                jsonb_build_object('vis', 'internal', 'internal', true, 'by', 'system',
                                   'text', format('Merged into #%s', v_primary.id), 'at', now()),
                jsonb_build_object('vis', 'ticket', 'by', 'system',
                                   'text', 'This report was closed as a duplicate of another report.',
                                   'at', now()))
   where t.id = v_duplicate.id;
end;
$$;

-- Rule 6: the one way a ticket leaves a department.
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
    raise exception 'a destination department is required' using errcode = '22023';
  end if;
  if not exists (select 1 from public.departments d where d.code = p_dept) then
    raise exception 'unknown department %', p_dept using errcode = '22023';
  end if;
  if p_remarks is null or jsonb_typeof(p_remarks) <> 'array' then
    raise exception 'p_remarks must be an array' using errcode = '22023';
  end if;
  select * into v_ticket from public.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if not found or not public.current_user_can_handle_vs(v_ticket.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.vs_tickets t
     set target_dept = p_dept, remarks = t.remarks || p_remarks
   where t.id = p_id;
end;
$$;

create or replace function public.vs_set_public(p_id bigint, p_public boolean, p_public_title text default null)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ticket public.vs_tickets;
begin
  select * into v_ticket from public.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if not found or not public.current_user_can_handle_vs(v_ticket.target_dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if p_public and not public.vs_category_is_public(v_ticket.category_id) then
    raise exception 'this category cannot be published' using errcode = '42501';
  end if;
  if p_public and (coalesce(btrim(p_public_title), '') = '') then
    raise exception 'a public headline is required' using errcode = '22023';
  end if;
  update public.vs_tickets t
     set is_public = coalesce(p_public, false),
         public_title = case when p_public then btrim(p_public_title) else t.public_title end
   where t.id = p_id;
end;
$$;

-- What the board may show of a ticket (rule 13). Never the body.
create or replace function public.vs_is_on_board(p_id bigint)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select t.is_public and t.deleted_at is null and t.public_title is not null
            and public.vs_category_is_public(t.category_id)
       from public.vs_tickets t where t.id = p_id),
    false);
$$;

create or replace function public.get_public_vs_board()
returns table (id bigint, public_title text, target_dept text, status public.vs_status,
               created_at timestamptz, comment_count bigint)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.public_title, t.target_dept, t.status, t.created_at,
         (select count(*) from public.vs_public_comments c where c.ticket_id = t.id)
    from public.vs_tickets t
   where public.vs_is_on_board(t.id)
   order by t.created_at desc;
$$;

create or replace function public.get_public_vs_problem(p_id bigint)
returns table (id bigint, public_title text, target_dept text, status public.vs_status,
               created_at timestamptz, comments jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.public_title, t.target_dept, t.status, t.created_at,
         coalesce((select jsonb_agg(jsonb_build_object('seq', c.seq, 'body', c.body, 'at', c.created_at)
                                    order by c.seq)
                     from public.vs_public_comments c where c.ticket_id = t.id), '[]'::jsonb)
    from public.vs_tickets t
   where t.id = p_id and public.vs_is_on_board(t.id);
$$;

create or replace function public.vs_post_public_comment(p_id bigint, p_body text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_seq integer;
begin
  if auth.uid() is null or public.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if not public.vs_is_on_board(p_id) then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  -- Serialise per ticket so seq stays dense.
  perform 1 from public.vs_tickets t where t.id = p_id for update;
  select coalesce(max(c.seq), 0) + 1 into v_seq from public.vs_public_comments c where c.ticket_id = p_id;
  insert into public.vs_public_comments (ticket_id, seq, author_id, body)
  values (p_id, v_seq, auth.uid(), p_body);
  return v_seq;
end;
$$;

-- Linked tickets for the submitter's tracking page and the handlers' console.
create or replace function public.get_vs_linked_context(p_id bigint)
returns table (id bigint, public_title text, status public.vs_status, relation text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_ticket public.vs_tickets;
begin
  select * into v_ticket from public.vs_tickets t where t.id = p_id and t.deleted_at is null;
  if not found then
    return;
  end if;
  if public.current_user_can_handle_vs(v_ticket.target_dept) then
    return query
      select t.id, coalesce(t.public_title, t.title), t.status,
             case when t.id = v_ticket.duplicate_of then 'primary' else 'duplicate' end
        from public.vs_tickets t
       where t.deleted_at is null
         and (t.id = v_ticket.duplicate_of or t.duplicate_of = v_ticket.id)
         and public.current_user_can_handle_vs(t.target_dept);
  elsif v_ticket.submitter_id = auth.uid() and v_ticket.duplicate_of is not null then
    -- The submitter learns only the public face of the primary, and only if it is on the board.
    return query
      select t.id, t.public_title, t.status, 'primary'::text
        from public.vs_tickets t
       where t.id = v_ticket.duplicate_of and public.vs_is_on_board(t.id);
  end if;
end;
$$;

-- 05_pr_tickets.sql
-- PR tickets: public-relations requests with a human-readable id.

create sequence public.pr_ticket_seq as integer start with 1000;

create table public.pr_tickets (
  id              text primary key
                    default ('PR-' || lpad(nextval('public.pr_ticket_seq')::text, 5, '0')),
  submitter_id    uuid not null references public.users (id) on delete restrict,
  submitter_label text not null,
  brief           text not null,
  file_url        text,
  created_at      timestamptz not null default now(),
  deleted_at      timestamptz,
  updated_at      timestamptz not null default now(),
  constraint pr_tickets_id_format check (id ~ '^PR-[0-9]{5,}$'),
  constraint pr_tickets_brief_length check (char_length(btrim(brief)) between 10 and 5000),
  constraint pr_tickets_file_url_https check (file_url is null or file_url ~ '^https://'),
  constraint pr_tickets_deleted_after_created check (deleted_at is null or deleted_at >= created_at)
);

alter table public.pr_tickets enable row level security;

create or replace trigger pr_tickets_touch_updated_at
  before update on public.pr_tickets
  for each row execute function public.touch_updated_at();

create or replace function public.current_user_is_pr_handler()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select u.role in ('dev', 'admin', 'pr_staff')
            or (u.role = 'staff' and 'pr' = any (u.permissions || u.managed_permissions))
       from public.users u where u.id = auth.uid()),
    false);
$$;

-- Rule 1 for PR tickets: a submitter edits the brief and the file, nothing else.
create or replace function public.pr_tickets_guard_submitter_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  allowed constant text[] := array['brief', 'file_url', 'updated_at'];
begin
  if auth.uid() is null or public.current_user_is_pr_handler() then
    return new;
  end if;
  if (to_jsonb(new) - allowed) is distinct from (to_jsonb(old) - allowed) then
    raise exception 'pr_tickets: submitters may change only the brief and the file'
      using errcode = '42501';
  end if;
  return new;
end;
$$;

create or replace trigger pr_tickets_guard_submitter_update
  before update on public.pr_tickets
  for each row execute function public.pr_tickets_guard_submitter_update();

create policy "submitters insert their PR tickets"
  on public.pr_tickets for insert to authenticated
  with check (submitter_id = (select auth.uid()) and deleted_at is null);

create policy "submitters read their PR tickets"
  on public.pr_tickets for select to authenticated
  using (submitter_id = (select auth.uid()) and deleted_at is null);

create policy "submitters update their PR tickets"
  on public.pr_tickets for update to authenticated
  using (submitter_id = (select auth.uid()) and deleted_at is null)
  with check (submitter_id = (select auth.uid()) and deleted_at is null);

create policy "PR handlers read PR tickets"
  on public.pr_tickets for select to authenticated
  using (deleted_at is null and (select public.current_user_is_pr_handler()));

create policy "PR handlers update PR tickets"
  on public.pr_tickets for update to authenticated
  using (deleted_at is null and (select public.current_user_is_pr_handler()))
  with check (deleted_at is null and (select public.current_user_is_pr_handler()));

-- Rule 14: equality on the trimmed, case-folded id; no pattern matching.
create or replace function public.get_pr_ticket_by_id(p_id text)
returns table (id text, submitter_label text, brief text, file_url text, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.submitter_label, t.brief, t.file_url, t.created_at
    from public.pr_tickets t
   where upper(t.id) = upper(btrim(p_id)) and t.deleted_at is null;
$$;

create or replace function public.soft_delete_pr_ticket(p_id text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if public.current_user_role() is null or not public.current_user_is_pr_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.pr_tickets t set deleted_at = now()
   where t.id = p_id and t.deleted_at is null;
  if not found then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
end;
$$;

-- 06_shop_orders.sql
-- Shop orders with payment slips.

create table public.shop_orders (
  id            bigint generated always as identity primary key,
  buyer_id      uuid not null references public.users (id) on delete restrict,
  status        public.order_status not null default 'pending',
  subtotal      numeric(12, 2) not null default 0,
  fee           numeric(12, 2) not null default 0,
  total         numeric(12, 2) not null default 0,
  admin_note    text,
  timeline      jsonb not null default '[]'::jsonb,
  slips         jsonb not null default '[]'::jsonb,
  details       jsonb not null default '{}'::jsonb,
  created_at    timestamptz not null default now(),
  paid_at       timestamptz,
  updated_at    timestamptz not null default now(),
  constraint shop_orders_amounts_non_negative check (subtotal >= 0 and fee >= 0),
  constraint shop_orders_total_is_sum check (total = subtotal + fee),
  constraint shop_orders_timeline_is_array check (jsonb_typeof(timeline) = 'array'),
  constraint shop_orders_slips_is_array check (jsonb_typeof(slips) = 'array' and jsonb_array_length(slips) <= 5),
  constraint shop_orders_details_is_object check (jsonb_typeof(details) = 'object'),
  constraint shop_orders_paid_at_agrees
    check ((status in ('paid', 'shipped', 'completed')) = (paid_at is not null)),
  constraint shop_orders_paid_after_created check (paid_at is null or paid_at >= created_at)
);

create index shop_orders_buyer_idx on public.shop_orders (buyer_id);

alter table public.shop_orders enable row level security;

create or replace trigger shop_orders_touch_updated_at
  before update on public.shop_orders
  for each row execute function public.touch_updated_at();

create or replace function public.current_user_is_shop_staff()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select u.role in ('dev', 'admin', 'staff') from public.users u where u.id = auth.uid()),
    false);
$$;

-- Rule 4: a buyer edits slips and details only, only while the order is open to them, and may
-- move it only along the buyer's transitions (never to paid).
create or replace function public.shop_orders_guard_buyer_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  allowed constant text[] := array['slips', 'details', 'status', 'updated_at'];
begin
  if auth.uid() is null or public.current_user_is_shop_staff() then
    -- paid_at follows the status for everyone else too.
    if new.status in ('paid', 'shipped', 'completed') and new.paid_at is null then
      new.paid_at := greatest(now(), new.created_at);
    elsif new.status not in ('paid', 'shipped', 'completed') then
      new.paid_at := null;
    end if;
    return new;
  end if;
  if old.status not in ('pending', 'review', 'slip_mismatch') then
    raise exception 'shop_orders: this order can no longer be changed' using errcode = '42501';
  end if;
  if (to_jsonb(new) - allowed) is distinct from (to_jsonb(old) - allowed) then
    raise exception 'shop_orders: buyers may change only slips and details' using errcode = '42501';
  end if;
  if new.status is distinct from old.status
     and (new.status not in ('pending', 'review', 'slip_mismatch', 'cancelled')
          or not exists (select 1 from public.order_status_transitions t
                          where t.from_status = old.status and t.to_status = new.status)) then
    raise exception 'shop_orders: buyers cannot move an order to %', new.status using errcode = '42501';
  end if;
  return new;
end;
$$;

create or replace trigger shop_orders_guard_buyer_update
  before update on public.shop_orders
  for each row execute function public.shop_orders_guard_buyer_update();

create policy "buyers place orders"
  on public.shop_orders for insert to authenticated
  with check (
    buyer_id = (select auth.uid())
    and status = 'pending'
    and admin_note is null
    and timeline = '[]'::jsonb
    and paid_at is null
  );

create policy "buyers read their orders"
  on public.shop_orders for select to authenticated
  using (buyer_id = (select auth.uid()));

create policy "buyers update open orders"
  on public.shop_orders for update to authenticated
  using (buyer_id = (select auth.uid()) and status in ('pending', 'review', 'slip_mismatch'))
  with check (buyer_id = (select auth.uid()) and status in ('pending', 'review', 'slip_mismatch', 'cancelled'));

create policy "shop staff read orders"
  on public.shop_orders for select to authenticated
  using ((select public.current_user_is_shop_staff()));

create policy "shop staff update orders"
  on public.shop_orders for update to authenticated
  using ((select public.current_user_is_shop_staff()))
  with check ((select public.current_user_is_shop_staff()));

-- 07_team.sql
-- The team tree and its members.

create table public.team_nodes (
  id        bigint generated always as identity primary key,
  parent_id bigint references public.team_nodes (id) on delete restrict
              deferrable initially deferred,
  name      text not null,
  kind      public.team_node_kind not null,
  position  integer not null default 0,
  is_public boolean not null default false,
  constraint team_nodes_not_own_parent check (parent_id is null or parent_id <> id),
  constraint team_nodes_position_non_negative check (position >= 0),
  constraint team_nodes_sibling_position unique nulls not distinct (parent_id, position)
    deferrable initially deferred
);

alter table public.team_nodes enable row level security;

create policy "staff read the team tree"
  on public.team_nodes for select to authenticated
  using ((select public.current_user_is_staff()));

create policy "admins manage the team tree"
  on public.team_nodes for all to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

create table public.team_members (
  node_id        bigint not null references public.team_nodes (id) on delete cascade,
  kkumail        extensions.citext not null,
  user_id        uuid references public.users (id) on delete set null,
  name           text not null,
  nickname       text,
  position       text,
  student_id     text,
  year           smallint,
  major          text,
  permissions    public.app_permission[] not null default '{}',
  vs_dept        text references public.departments (code) on delete restrict,
  project_seat   text,
  primary key (node_id, kkumail),
  constraint team_members_kkumail_domain check (kkumail ~ '@kkumail\.com$'),
  constraint team_members_student_id_format check (student_id is null or student_id ~ '^[0-9]{9}-[0-9]$'),
  constraint team_members_year_range check (year is null or year between 1 and 8)
);

create index team_members_user_idx on public.team_members (user_id);

alter table public.team_members enable row level security;

-- Rule 11: no anon policy at all. Members read their own rows; staff read all.
create policy "members read their own membership"
  on public.team_members for select to authenticated
  using (user_id = (select auth.uid()));

create policy "staff read members"
  on public.team_members for select to authenticated
  using ((select public.current_user_is_staff()));

create policy "admins manage members"
  on public.team_members for all to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

revoke all on public.team_members from anon;

-- Public org chart: public nodes whose every ancestor is public; members without private fields.
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
  select jsonb_build_object(
    'nodes', coalesce((select jsonb_agg(jsonb_build_object(
                 'id', v.id, 'parent_id', v.parent_id, 'name', v.name, 'kind', v.kind,
                 'position', v.position) order by v.parent_id nulls first, v.position)
               from visible v), '[]'::jsonb),
    'members', coalesce((select jsonb_agg(jsonb_build_object(
                 'node_id', m.node_id, 'name', m.name, 'nickname', m.nickname,
                 'position', m.position) order by m.node_id, m.name)
               from public.team_members m join visible v on v.id = m.node_id), '[]'::jsonb)
  );
$$;

-- Private resolvers (rule 15): never executable by the API roles.
create or replace function public.effective_team_permissions_for_email(p_email text)
returns public.app_permission[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(distinct p), '{}')
    from public.team_members m, unnest(m.permissions) p
   where m.kkumail = p_email::extensions.citext;
$$;

create or replace function public.node_effective_public(p_node_id bigint)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  with recursive up as (
    select n.id, n.parent_id, n.is_public from public.team_nodes n where n.id = p_node_id
    union all
    select p.id, p.parent_id, p.is_public from public.team_nodes p join up on p.id = up.parent_id
  )
  select coalesce(bool_and(is_public), false) from up;
$$;

-- The caller's own team permissions become their managed permissions.
create or replace function public.sync_my_team_permissions()
returns public.app_permission[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_email text;
  v_permissions public.app_permission[];
begin
  if auth.uid() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select u.email into v_email from public.users u where u.id = auth.uid();
  if v_email is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.team_members m set user_id = auth.uid()
   where m.kkumail = v_email::extensions.citext and m.user_id is null;
  v_permissions := public.effective_team_permissions_for_email(v_email);
  update public.users u set managed_permissions = v_permissions where u.id = auth.uid();
  return v_permissions;
end;
$$;

-- 08_projects.sql
-- Projects, their documents and files, and professors' sign requests.

create table public.projects (
  id         uuid primary key default gen_random_uuid(),
  title      text not null,
  owner_id   uuid not null references public.users (id) on delete restrict,
  created_at timestamptz not null default now(),
  constraint projects_title_length check (char_length(btrim(title)) between 3 and 200)
);

create table public.project_documents (
  id         uuid primary key default gen_random_uuid(),
  project_id uuid not null references public.projects (id) on delete cascade,
  title      text not null,
  version    integer not null default 1,
  created_at timestamptz not null default now(),
  constraint project_documents_version_unique unique (project_id, title, version),
  constraint project_documents_version_positive check (version >= 1),
  -- Lets project_files name the project and the document together.
  constraint project_documents_project_pair unique (project_id, id)
);

create table public.project_files (
  id           uuid primary key default gen_random_uuid(),
  project_id   uuid not null,
  document_id  uuid not null,
  storage_path text not null,
  uploaded_by  uuid not null references public.users (id) on delete restrict,
  signed       boolean not null default false,
  created_at   timestamptz not null default now(),
  constraint project_files_document_fkey foreign key (project_id, document_id)
    references public.project_documents (project_id, id) on delete cascade,
  constraint project_files_path_format check (storage_path ~ '^projects/[0-9a-f-]{36}/')
);

create table public.project_sign_requests (
  document_id  uuid not null references public.project_documents (id) on delete cascade,
  professor_id uuid not null references public.users (id) on delete restrict,
  requested_by uuid not null references public.users (id) on delete restrict,
  state        public.sign_request_state not null default 'requested',
  requested_at timestamptz not null default now(),
  answered_at  timestamptz,
  primary key (document_id, professor_id),
  constraint project_sign_requests_answer_agrees
    check ((state = 'requested') = (answered_at is null)),
  constraint project_sign_requests_answer_after_request
    check (answered_at is null or answered_at >= requested_at)
);

create table public.project_settings (
  id         boolean primary key default true,
  settings   jsonb not null default '{}'::jsonb,
  updated_at timestamptz not null default now(),
  constraint project_settings_singleton check (id),
  constraint project_settings_is_object check (jsonb_typeof(settings) = 'object')
);

alter table public.projects enable row level security;
alter table public.project_documents enable row level security;
alter table public.project_files enable row level security;
alter table public.project_sign_requests enable row level security;
alter table public.project_settings enable row level security;

-- Rule 10: the project tables are public to read.
create policy "projects are readable"
  on public.projects for select to anon, authenticated using (true);
create policy "project documents are readable"
  on public.project_documents for select to anon, authenticated using (true);
create policy "project files are readable"
  on public.project_files for select to anon, authenticated using (true);

create policy "project actors write projects"
  on public.projects for all to authenticated
  using ((select public.current_user_is_project_actor()))
  with check ((select public.current_user_is_project_actor()));
create policy "project actors write documents"
  on public.project_documents for all to authenticated
  using ((select public.current_user_is_project_actor()))
  with check ((select public.current_user_is_project_actor()));

-- A professor uploads the signed file for a document addressed to them.
create policy "professors upload signed files"
  on public.project_files for insert to authenticated
  with check (
    uploaded_by = (select auth.uid())
    and exists (select 1 from public.project_sign_requests r
                 where r.document_id = project_files.document_id
                   and r.professor_id = (select auth.uid()))
  );

create policy "project actors upload files"
  on public.project_files for insert to authenticated
  with check (uploaded_by = (select auth.uid()) and (select public.current_user_is_project_actor()));

create policy "sign requests visible to their parties"
  on public.project_sign_requests for select to authenticated
  using (professor_id = (select auth.uid()) or requested_by = (select auth.uid()));

create policy "project actors request signatures"
  on public.project_sign_requests for insert to authenticated
  with check (requested_by = (select auth.uid()) and (select public.current_user_is_project_actor()));

create policy "professors answer their sign requests"
  on public.project_sign_requests for update to authenticated
  using (professor_id = (select auth.uid()))
  with check (professor_id = (select auth.uid()));

revoke all on public.project_settings from anon;

create policy "staff read project settings"
  on public.project_settings for select to authenticated
  using ((select public.current_user_is_staff()));

create policy "admins change project settings"
  on public.project_settings for update to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

-- Rule 1: the professor answers; nothing else about the request changes.
create or replace function public.project_sign_requests_guard_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  allowed constant text[] := array['state', 'answered_at'];
begin
  if auth.uid() is null or public.current_user_is_admin() then
    return new;
  end if;
  if (to_jsonb(new) - allowed) is distinct from (to_jsonb(old) - allowed) then
    raise exception 'project_sign_requests: only the answer may change' using errcode = '42501';
  end if;
  if new.state is distinct from old.state then
    new.answered_at := case when new.state = 'requested' then null
                            else greatest(now(), old.requested_at) end;
  end if;
  return new;
end;
$$;

create or replace trigger project_sign_requests_guard_update
  before update on public.project_sign_requests
  for each row execute function public.project_sign_requests_guard_update();

-- 09_students.sql
-- Student records, change requests, people and identity conflicts.

create table public.people (
  id         bigint generated always as identity primary key,
  user_id    uuid unique references public.users (id) on delete set null,
  full_name  text not null,
  created_at timestamptz not null default now()
);

alter table public.people enable row level security;

create or replace function public.my_person_id()
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select p.id from public.people p where p.user_id = auth.uid() and auth.uid() is not null;
$$;

create policy "people read themselves"
  on public.people for select to authenticated
  using (id = (select public.my_person_id()));

create policy "admins read people"
  on public.people for select to authenticated
  using ((select public.current_user_is_admin()));

create table public.identity_conflicts (
  id          bigint generated always as identity primary key,
  person_id   bigint not null references public.people (id) on delete cascade,
  other_id    bigint not null references public.people (id) on delete cascade,
  reason      text not null,
  details     jsonb not null default '{}'::jsonb,
  created_at  timestamptz not null default now(),
  resolved_at timestamptz,
  constraint identity_conflicts_distinct_people check (person_id <> other_id),
  constraint identity_conflicts_pair unique (person_id, other_id),
  constraint identity_conflicts_resolved_after check (resolved_at is null or resolved_at >= created_at),
  constraint identity_conflicts_details_object check (jsonb_typeof(details) = 'object')
);

alter table public.identity_conflicts enable row level security;

-- Rule 17.
create policy "people read their conflicts"
  on public.identity_conflicts for select to authenticated
  using (person_id = (select public.my_person_id()));

create policy "admins manage conflicts"
  on public.identity_conflicts for all to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

create table public.student_records (
  user_id     uuid primary key references public.users (id) on delete cascade,
  student_id  text not null,
  full_name   text not null,
  faculty     text not null,
  major       text,
  year        smallint not null,
  enrolled    daterange not null,
  updated_at  timestamptz not null default now(),
  constraint student_records_student_id_unique unique (student_id),
  constraint student_records_student_id_format check (student_id ~ '^[0-9]{9}-[0-9]$'),
  constraint student_records_year_range check (year between 1 and 8),
  constraint student_records_enrolled_bounded check (not isempty(enrolled) and not lower_inf(enrolled))
);

alter table public.student_records enable row level security;

create or replace trigger student_records_touch_updated_at
  before update on public.student_records
  for each row execute function public.touch_updated_at();

-- Students read but never write their record; the registrar's staff do.
create policy "students read their record"
  on public.student_records for select to authenticated
  using (user_id = (select auth.uid()));

create policy "university staff manage records"
  on public.student_records for all to authenticated
  using ((select public.current_user_role()) in ('uni_staff', 'admin', 'dev'))
  with check ((select public.current_user_role()) in ('uni_staff', 'admin', 'dev'));

create table public.student_change_requests (
  id            bigint generated always as identity primary key,
  user_id       uuid not null references public.student_records (user_id) on delete cascade,
  field         text not null,
  new_value     text not null,
  verdict       public.change_verdict not null default 'pending',
  admin_note    text,
  applied_value text,
  decided_by    uuid references public.users (id) on delete restrict,
  created_at    timestamptz not null default now(),
  decided_at    timestamptz,
  constraint student_change_requests_field check (field in ('full_name', 'major', 'faculty')),
  constraint student_change_requests_decision_agrees
    check ((verdict = 'pending') = (decided_at is null and decided_by is null)),
  constraint student_change_requests_applied_only_if_approved
    check (applied_value is null or verdict = 'approved'),
  constraint student_change_requests_decided_after check (decided_at is null or decided_at >= created_at)
);

-- One open request per student and field.
create unique index student_change_requests_one_open
  on public.student_change_requests (user_id, field) where verdict = 'pending';

alter table public.student_change_requests enable row level security;

-- Admin-only table (rule 18): students see outcomes through get_my_student_record.
create policy "admins manage change requests"
  on public.student_change_requests for all to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

create or replace function public.request_student_change(p_field text, p_value text)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id bigint;
begin
  if auth.uid() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  insert into public.student_change_requests (user_id, field, new_value)
  values (auth.uid(), p_field, p_value)
  returning id into v_id;
  return v_id;
end;
$$;

create or replace function public.get_my_student_record()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_record jsonb;
begin
  if auth.uid() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select to_jsonb(r) - 'updated_at' into v_record
    from public.student_records r where r.user_id = auth.uid();
  if v_record is null then
    return null;
  end if;
  return v_record || jsonb_build_object('change_requests', coalesce((
    select jsonb_agg(jsonb_build_object(
             'id', c.id, 'field', c.field, 'new_value', c.new_value, 'verdict', c.verdict,
             'admin_note', c.admin_note, 'applied_value', c.applied_value,
             'created_at', c.created_at, 'decided_at', c.decided_at) order by c.created_at desc, c.id desc)
      from (select * from public.student_change_requests c2
             where c2.user_id = auth.uid()
             order by c2.created_at desc, c2.id desc
             limit 10) c), '[]'::jsonb));
end;
$$;

-- 10_passport.sql
-- The activity passport, in its own API schema.

create schema if not exists passport;
grant usage on schema passport to anon, authenticated, service_role;

create table passport.profiles (
  user_id      uuid primary key references public.users (id) on delete cascade,
  student_id   text not null,
  display_name text not null,
  faculty      text,
  points       integer not null default 0,
  created_at   timestamptz not null default now(),
  constraint profiles_student_id_unique unique (student_id),
  constraint profiles_points_non_negative check (points >= 0)
);

create table passport.activities (
  id          bigint generated always as identity primary key,
  user_id     uuid not null references passport.profiles (user_id) on delete cascade,
  name        text not null,
  points      integer not null,
  held_during tstzrange not null,
  created_at  timestamptz not null default now(),
  constraint activities_points_range check (points between 0 and 100),
  constraint activities_during_bounded check (not isempty(held_during) and not lower_inf(held_during)),
  -- One activity at a time per student.
  constraint activities_no_overlap exclude using gist (user_id with =, held_during with &&)
);

create table passport.tiers (
  name       text primary key,
  min_points int4range not null,
  constraint tiers_no_overlap exclude using gist (min_points with &&)
);

insert into passport.tiers (name, min_points) values
  ('bronze', int4range(0, 100)), ('silver', int4range(100, 300)), ('gold', int4range(300, null));

create or replace function passport.is_admin()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select public.current_user_is_admin();
$$;

alter table passport.profiles enable row level security;
alter table passport.activities enable row level security;
alter table passport.tiers enable row level security;

-- Rule 19.
create policy "owners read their profile"
  on passport.profiles for select to authenticated
  using (user_id = (select auth.uid()));

create policy "admins read profiles"
  on passport.profiles for select to authenticated
  using ((select passport.is_admin()));

create policy "admins manage profiles"
  on passport.profiles for all to authenticated
  using ((select passport.is_admin()))
  with check ((select passport.is_admin()));

create policy "owners read their activities"
  on passport.activities for select to authenticated
  using (user_id = (select auth.uid()) or (select passport.is_admin()));

create policy "admins manage activities"
  on passport.activities for all to authenticated
  using ((select passport.is_admin()))
  with check ((select passport.is_admin()));

create policy "tiers are readable"
  on passport.tiers for select to anon, authenticated using (true);

create view passport.user_tiers
with (security_invoker = true)
as
  select p.user_id, p.display_name, p.points, t.name as tier
    from passport.profiles p
    join passport.tiers t on t.min_points @> p.points;

grant select on passport.profiles, passport.activities, passport.tiers, passport.user_tiers
  to authenticated;
grant select on passport.tiers to anon;
grant insert, update, delete on passport.profiles, passport.activities to authenticated;

create or replace function passport.admin_leaderboard()
returns table (user_id uuid, display_name text, points integer, tier text)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if auth.uid() is null or not public.current_user_is_admin() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    select p.user_id, p.display_name, p.points, t.name
      from passport.profiles p
      join passport.tiers t on t.min_points @> p.points
     order by p.points desc, p.user_id
     limit 100;
end;
$$;

-- 11_audit.sql
-- Append-only audit log, partitioned by month. Written only by definer triggers.

create table public.audit_events (
  id          bigint generated always as identity,
  occurred_at timestamptz not null default now(),
  actor_id    uuid,
  table_name  text not null,
  row_key     text not null,
  action      text not null,
  changes     jsonb not null default '{}'::jsonb,
  primary key (id, occurred_at),
  constraint audit_events_action check (action in ('insert', 'update', 'delete')),
  constraint audit_events_changes_object check (jsonb_typeof(changes) = 'object')
) partition by range (occurred_at);

create table public.audit_events_2026_h2 partition of public.audit_events
  for values from ('2026-07-01') to ('2027-01-01');
create table public.audit_events_2027_h1 partition of public.audit_events
  for values from ('2027-01-01') to ('2027-07-01');
create table public.audit_events_default partition of public.audit_events default;

alter table public.audit_events enable row level security;

create policy "admins read the audit log"
  on public.audit_events for select to authenticated
  using ((select public.current_user_is_admin()));

-- The partitions are reached only through the parent.
revoke all on public.audit_events_2026_h2, public.audit_events_2027_h1, public.audit_events_default
  from anon, authenticated;
revoke insert, update, delete, truncate on public.audit_events from anon, authenticated;

create or replace function public.audit_row_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_key text;
  v_changes jsonb;
begin
  v_key := coalesce(to_jsonb(new) ->> 'id', to_jsonb(old) ->> 'id', '');
  if tg_op = 'UPDATE' then
    select coalesce(jsonb_object_agg(n.key, n.value), '{}'::jsonb) into v_changes
      from jsonb_each(to_jsonb(new)) n
     where n.value is distinct from to_jsonb(old) -> n.key;
  else
    v_changes := '{}'::jsonb;
  end if;
  insert into public.audit_events (actor_id, table_name, row_key, action, changes)
  values (auth.uid(), tg_table_name, v_key, lower(tg_op), v_changes);
  return null;
end;
$$;

create or replace trigger vs_tickets_audit
  after insert or update or delete on public.vs_tickets
  for each row execute function public.audit_row_change();

create or replace trigger shop_orders_audit
  after insert or update or delete on public.shop_orders
  for each row execute function public.audit_row_change();

create or replace trigger users_audit
  after update on public.users
  for each row execute function public.audit_row_change();

-- 12_privileges.sql
-- Execute privileges (rule 15). Supabase grants EXECUTE to anon and authenticated on every new
-- function, so each private helper is revoked from every role by name, and PUBLIC too.

revoke execute on function public.effective_team_permissions_for_email(text) from public, anon, authenticated;
revoke execute on function public.node_effective_public(bigint) from public, anon, authenticated;
revoke execute on function public.handle_new_auth_user() from public, anon, authenticated;
revoke execute on function public.audit_row_change() from public, anon, authenticated;
revoke execute on function public.vs_tickets_assign_number() from public, anon, authenticated;
revoke execute on function public.vs_category_is_public(integer) from public, anon, authenticated;
revoke execute on function public.vs_is_on_board(bigint) from public, anon, authenticated;

-- Signed-in only.
revoke execute on function public.get_my_student_record() from public, anon;
revoke execute on function public.request_student_change(text, text) from public, anon;
revoke execute on function public.sync_my_team_permissions() from public, anon;
revoke execute on function public.get_my_vs_tickets() from public, anon;
revoke execute on function public.vs_add_remark(bigint, text) from public, anon;
revoke execute on function public.soft_delete_vs_ticket(bigint) from public, anon;
revoke execute on function public.soft_delete_pr_ticket(text) from public, anon;
revoke execute on function public.find_similar_vs_tickets(bigint) from public, anon;
revoke execute on function public.merge_vs_tickets(bigint, bigint) from public, anon;
revoke execute on function public.vs_transfer_dept(bigint, text, jsonb) from public, anon;
revoke execute on function public.vs_set_public(bigint, boolean, text) from public, anon;
revoke execute on function public.vs_post_public_comment(bigint, text) from public, anon;

-- passport: admins' function; the API roles may call it and be refused by its own check.
revoke execute on all functions in schema passport from public;
grant execute on function passport.admin_leaderboard() to anon, authenticated;
grant execute on function passport.is_admin() to authenticated;

