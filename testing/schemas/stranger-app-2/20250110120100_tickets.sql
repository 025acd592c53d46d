-- VS (voice of students) and PR tickets.

create table public.vs_categories (
  id text primary key,
  label text not null,
  is_confidential boolean not null default false,
  public_eligible boolean not null default false
);

create table public.vs_tickets (
  id uuid primary key default gen_random_uuid(),
  submitter_id uuid not null references public.profiles (id) on delete cascade,
  submitter_label text not null default 'student',
  target_dept text not null references public.departments (code),
  status text not null default 'open'
    check (status in ('open', 'in_progress', 'resolved', 'closed', 'merged')),
  category text references public.vs_categories (id) on delete set null,
  title text not null default '',
  body text not null default '',
  is_public boolean not null default false,
  public_title text,
  duplicate_of uuid references public.vs_tickets (id),
  is_duplicate boolean generated always as (duplicate_of is not null) stored,
  tags text[] not null default '{}',
  remarks jsonb not null default '[]'::jsonb
    check (jsonb_typeof(remarks) = 'array' and jsonb_array_length(remarks) <= 40),
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index vs_tickets_live_dept on public.vs_tickets (target_dept) where deleted_at is null;

create table public.vs_public_comments (
  id uuid primary key default gen_random_uuid(),
  ticket_id uuid not null references public.vs_tickets (id) on delete cascade,
  author_id uuid not null references public.profiles (id) on delete cascade,
  body text not null check (length(body) between 1 and 2000),
  created_at timestamptz not null default now()
);

-- Who handles VS tickets, and in which department.
create function public.is_vs_handler() returns boolean
language sql stable security definer set search_path = public as $$
  select coalesce(public.current_user_role() in ('vs_staff', 'vp_admin', 'admin'), false)
      or public.current_user_has_permission('vs')
$$;

create function public.can_handle_vs_dept(p_dept text) returns boolean
language sql stable security definer set search_path = public as $$
  -- vs_staff and admins handle every department; vp_admin and holders of the vs permission only their own.
  select coalesce(public.current_user_role() in ('vs_staff', 'admin'), false)
      or coalesce(public.is_vs_handler() and p_dept = public.current_user_dept(), false)
$$;

-- The submitter is always the signed-in caller.
create function public.vs_tickets_fill_submitter() returns trigger
language plpgsql as $$
begin
  if auth.uid() is not null then
    new.submitter_id := auth.uid();
  end if;
  return new;
end $$;

-- Rule 3: remarks are append-only for every caller (the cap is the CHECK), and a submitter's
-- entries are visible on the ticket and signed as the submitter. Soft delete never goes
-- through PATCH: only soft_delete_vs_ticket, which says so for its own statement.
create function public.vs_tickets_remarks_guard() returns trigger
language plpgsql as $$
declare
  entry jsonb;
  n_old int := jsonb_array_length(old.remarks);
begin
  if auth.uid() is null then
    return new;
  end if;
  if new.deleted_at is distinct from old.deleted_at and current_setting('app.soft_delete', true) is distinct from 'on' then
    raise exception 'deleted_at changes only through soft_delete_vs_ticket' using errcode = 'P0001';
  end if;
  if jsonb_typeof(new.remarks) is distinct from 'array' or (jsonb_array_length(new.remarks) < n_old
     or (select jsonb_agg(e) from jsonb_array_elements(new.remarks) with ordinality x(e, i) where i <= n_old)
        is distinct from (case when n_old = 0 then null else old.remarks end)) then
    raise exception 'remarks are append-only' using errcode = 'P0001';
  end if;
  if old.submitter_id = auth.uid() and not public.can_handle_vs_dept(old.target_dept) then
    for entry in select e from jsonb_array_elements(new.remarks) with ordinality x(e, i) where i > n_old loop
      if entry ->> 'vis' is distinct from 'ticket' or entry ->> 'by' is distinct from old.submitter_label
         or (entry -> 'internal') is distinct from 'false'::jsonb and entry ? 'internal' then
        raise exception 'a submitter remark must be visible on the ticket and signed by the submitter'
          using errcode = 'P0001';
      end if;
    end loop;
  end if;
  return new;
end $$;

-- Handlers of the ticket's department are exempt from the owner guard; a handler elsewhere is an owner like any other.
create function public.guard_exempt_vs(p_old jsonb) returns boolean
language sql stable as $$ select public.can_handle_vs_dept(p_old ->> 'target_dept') $$;

create trigger vs_tickets_submitter before insert on public.vs_tickets
  for each row execute function public.vs_tickets_fill_submitter();
create trigger vs_tickets_touch before update on public.vs_tickets
  for each row execute function public.touch_updated_at();
create trigger vs_tickets_owner_guard before update on public.vs_tickets
  for each row execute function public.guard_owner_columns(
    'submitter_id', 'guard_exempt_vs', 'title', 'body', 'remarks');
create trigger vs_tickets_remarks before update on public.vs_tickets
  for each row execute function public.vs_tickets_remarks_guard();

alter table public.vs_categories enable row level security;
alter table public.vs_tickets enable row level security;
alter table public.vs_public_comments enable row level security;

create policy vs_categories_read on public.vs_categories for select to anon, authenticated using (true);
create policy vs_categories_write on public.vs_categories for all to authenticated
  using (public.is_vs_handler()) with check (public.is_vs_handler());

-- Deleted tickets are gone for every API caller, whatever else allows them.
create policy vs_tickets_live_only on public.vs_tickets as restrictive for select to anon, authenticated
  using (deleted_at is null);
create policy vs_tickets_read on public.vs_tickets for select to authenticated
  using (submitter_id = (select auth.uid()) or public.can_handle_vs_dept(target_dept));
-- A submitter files a fresh ticket: nothing a handler decides (rule 3) set by them.
create policy vs_tickets_insert on public.vs_tickets for insert to authenticated
  with check (submitter_id = (select auth.uid()) and public.current_user_role() is not null and deleted_at is null
              and not is_public and public_title is null and duplicate_of is null and tags = '{}' and status = 'open'
              and remarks = '[]'::jsonb);
create policy vs_tickets_update on public.vs_tickets for update to authenticated
  using (submitter_id = (select auth.uid()) or public.can_handle_vs_dept(target_dept))
  with check (submitter_id = (select auth.uid()) or public.can_handle_vs_dept(target_dept));
create policy vs_tickets_delete on public.vs_tickets for delete to authenticated
  using (public.current_user_is_staff() and public.can_handle_vs_dept(target_dept));

create policy vs_public_comments_read on public.vs_public_comments for select to anon, authenticated
  using (false);  -- read through get_public_vs_problem

grant select on public.vs_categories to anon, authenticated;
grant insert, update, delete on public.vs_categories to authenticated;
grant select, insert, update, delete on public.vs_tickets to authenticated;
grant select on public.vs_public_comments to anon, authenticated;
grant all on public.vs_categories, public.vs_tickets, public.vs_public_comments to service_role;

create table public.pr_tickets (
  id text primary key default ('PR-' || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 8))),
  submitter_id uuid not null references public.profiles (id) on delete cascade,
  submitter_label text not null default '',
  brief text not null default '',
  file_url text,
  status text not null default 'submitted'
    check (status in ('submitted', 'reviewing', 'approved', 'rejected', 'published')),
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create function public.is_pr_handler() returns boolean
language sql stable security definer set search_path = public as $$
  select coalesce(public.current_user_role() in ('pr_staff', 'admin'), false)
      or public.current_user_has_permission('pr')
$$;

create function public.guard_exempt_pr(p_old jsonb) returns boolean
language sql stable as $$ select public.is_pr_handler() $$;

create trigger pr_tickets_touch before update on public.pr_tickets
  for each row execute function public.touch_updated_at();
create trigger pr_tickets_owner_guard before update on public.pr_tickets
  for each row execute function public.guard_owner_columns(
    'submitter_id', 'guard_exempt_pr', 'brief', 'file_url', 'submitter_label');

alter table public.pr_tickets enable row level security;
create policy pr_tickets_live_only on public.pr_tickets as restrictive for select to anon, authenticated
  using (deleted_at is null);
create policy pr_tickets_read on public.pr_tickets for select to authenticated
  using (submitter_id = (select auth.uid()) or public.is_pr_handler());
create policy pr_tickets_insert on public.pr_tickets for insert to authenticated
  with check (submitter_id = (select auth.uid()) or public.is_pr_handler());
create policy pr_tickets_update on public.pr_tickets for update to authenticated
  using (submitter_id = (select auth.uid()) or public.is_pr_handler())
  with check (submitter_id = (select auth.uid()) or public.is_pr_handler());
create policy pr_tickets_delete on public.pr_tickets for delete to authenticated
  using (public.current_user_is_staff() and public.is_pr_handler());

grant select, insert, update, delete on public.pr_tickets to authenticated;
grant all on public.pr_tickets to service_role;

revoke execute on function public.is_vs_handler(), public.can_handle_vs_dept(text),
  public.is_pr_handler() from public;
grant execute on function public.is_vs_handler(), public.can_handle_vs_dept(text),
  public.is_pr_handler() to anon, authenticated, service_role;
