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
