-- VS tickets: reports from members to a department, handled by that department's staff.
create type public.vs_status as enum ('open', 'in_progress', 'waiting', 'resolved', 'closed', 'rejected');

create table public.vs_categories (
  id integer generated always as identity primary key,
  org_id uuid not null default app.jwt_org_id() references public.orgs (id),
  name text not null check (char_length(name) between 2 and 60),
  is_confidential boolean not null default false,
  public_eligible boolean not null default false,
  unique (org_id, name)
);

create table public.vs_tickets (
  id bigint generated always as identity primary key,
  org_id uuid not null default app.jwt_org_id() references public.orgs (id),
  submitter_id uuid not null default auth.uid() references public.users (id) on delete cascade,
  submitter_label text not null check (char_length(submitter_label) between 1 and 80),
  target_dept text not null check (target_dept ~ '^[A-Z]{2,6}$'),
  status public.vs_status not null default 'open',
  category_id integer references public.vs_categories (id) on delete set null,
  subject text not null check (char_length(subject) between 3 and 200),
  body text not null check (char_length(body) <= 10000),
  is_public boolean not null default false,
  public_title text check (public_title is null or char_length(btrim(public_title)) between 5 and 140),
  public_summary text,
  duplicate_of bigint references public.vs_tickets (id) on delete set null
    check (duplicate_of is distinct from id),
  is_duplicate boolean generated always as (duplicate_of is not null) stored,
  tags text[] not null default '{}' check (array_position(tags, '') is null),
  remarks jsonb not null default '[]'::jsonb check (jsonb_typeof(remarks) = 'array'),
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index vs_tickets_dept_idx on public.vs_tickets (org_id, target_dept) where deleted_at is null;
create index vs_tickets_submitter_idx on public.vs_tickets (submitter_id);

create table public.vs_public_comments (
  id bigint generated always as identity primary key,
  ticket_id bigint not null references public.vs_tickets (id) on delete cascade,
  author_id uuid not null default auth.uid() references public.users (id) on delete cascade,
  body text not null check (char_length(btrim(body)) between 1 and 2000),
  created_at timestamptz not null default now()
);

-- Who handles a department's tickets: admins everywhere; VS staff, VP admins and holders of the
-- vs permission in their own department only.
create or replace function app.can_handle_vs(p_dept text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select app.is_admin()
      or (p_dept is not null
          and p_dept = public.current_user_dept()
          and (app.has_role('vs_staff', 'vp_admin') or public.current_user_has_permission('vs')))
$$;

-- A category is shown publicly only when it still exists, is not confidential and is eligible.
create or replace function app.vs_category_is_public(p_category integer)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select not c.is_confidential and c.public_eligible from public.vs_categories c where c.id = p_category),
    false)
$$;
-- The public board's one test, shared by the board, the comment thread and publishing.
create or replace function app.vs_ticket_is_on_board(p_ticket bigint)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select t.is_public and t.deleted_at is null
            and nullif(btrim(t.public_title), '') is not null
            and app.vs_category_is_public(t.category_id)
     from public.vs_tickets t where t.id = p_ticket),
    false)
$$;

grant execute on function app.can_handle_vs(text), app.vs_category_is_public(integer),
  app.vs_ticket_is_on_board(bigint) to anon, authenticated;

-- Submitters may edit their own report's text and add remarks, nothing else.
create or replace function app.guard_vs_ticket()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  remark_cap constant int := 50;
  old_count int := jsonb_array_length(old.remarks);
  entry jsonb;
begin
  if not app.is_api_caller() or app.can_handle_vs(old.target_dept) then
    return new;
  end if;

  if new.is_public is distinct from old.is_public
     or new.public_title is distinct from old.public_title
     or new.category_id is distinct from old.category_id
     or new.status is distinct from old.status
     or new.target_dept is distinct from old.target_dept
     or new.tags is distinct from old.tags
     or new.submitter_id is distinct from old.submitter_id
     or new.submitter_label is distinct from old.submitter_label
     or new.deleted_at is distinct from old.deleted_at then
    raise exception 'you cannot change the handling fields of your ticket' using errcode = '42501';
  end if;

  if jsonb_array_length(new.remarks) < old_count
     or (select jsonb_agg(e order by i) from jsonb_array_elements(new.remarks) with ordinality x(e, i) where i <= old_count)
        is distinct from (case when old_count = 0 then null else old.remarks end) then
    raise exception 'remarks can only be appended' using errcode = '42501';
  end if;
  if jsonb_array_length(new.remarks) > remark_cap then
    raise exception 'a ticket holds at most % remarks', remark_cap using errcode = '54000';
  end if;
  for entry in select e from jsonb_array_elements(new.remarks) with ordinality x(e, i) where i > old_count loop
    if entry ->> 'vis' is distinct from 'ticket'
       or entry ->> 'by' is distinct from old.submitter_label
       or coalesce((entry ->> 'internal')::boolean, false) then
      raise exception 'your remarks are visible on the ticket and signed with your label' using errcode = '42501';
    end if;
  end loop;
  return new;
end;
$$;

create trigger vs_tickets_guard before update on public.vs_tickets
  for each row execute function app.guard_vs_ticket();
create trigger vs_tickets_touch before update on public.vs_tickets
  for each row execute function app.touch_updated_at();

alter table public.vs_tickets enable row level security;
alter table public.vs_categories enable row level security;
alter table public.vs_public_comments enable row level security;

create policy "tenant isolation" on public.vs_tickets
  as restrictive for all to authenticated
  using (org_id = (select app.jwt_org_id()))
  with check (org_id = (select app.jwt_org_id()));

create policy "deleted tickets are gone" on public.vs_tickets
  as restrictive for select to authenticated
  using (deleted_at is null);

create policy "no role, no tickets" on public.vs_tickets
  as restrictive for all to authenticated
  using ((select public.current_user_role()) is not null)
  with check ((select public.current_user_role()) is not null);

create policy "submitters read own" on public.vs_tickets
  for select to authenticated
  using (submitter_id = (select auth.uid()));

create policy "handlers read their department" on public.vs_tickets
  for select to authenticated
  using (app.can_handle_vs(target_dept));

create policy "members file tickets" on public.vs_tickets
  for insert to authenticated
  with check (
    submitter_id = (select auth.uid())
    and status = 'open'
    and not is_public
    and duplicate_of is null
    and deleted_at is null);

create policy "submitters edit own" on public.vs_tickets
  for update to authenticated
  using (submitter_id = (select auth.uid()))
  with check (submitter_id = (select auth.uid()));

create policy "handlers work their department" on public.vs_tickets
  for update to authenticated
  using (app.can_handle_vs(target_dept))
  with check (app.can_handle_vs(target_dept));

create policy "handlers delete in their department" on public.vs_tickets
  for delete to authenticated
  using (app.can_handle_vs(target_dept));

create policy "tenant isolation" on public.vs_categories
  as restrictive for all to authenticated
  using (org_id = (select app.jwt_org_id()))
  with check (org_id = (select app.jwt_org_id()));
create policy "members read categories" on public.vs_categories
  for select to authenticated using (true);
create policy "admins manage categories" on public.vs_categories
  for all to authenticated
  using ((select app.is_admin())) with check ((select app.is_admin()));

create policy "comments on public tickets are public" on public.vs_public_comments
  for select to anon, authenticated
  using (app.vs_ticket_is_on_board(ticket_id));

grant select, insert, update, delete on public.vs_tickets to authenticated;
grant select, insert, update, delete on public.vs_categories to authenticated;
grant select on public.vs_public_comments to anon, authenticated;
revoke all on public.vs_tickets, public.vs_categories from anon;

-- What a submitter's screens read: no duplicate cross-reference, no tags, no internal remarks.
create view public.my_vs_tickets
with (security_invoker = true) as
select t.id, t.target_dept, t.status, t.category_id, t.subject, t.body, t.is_public,
       t.public_title, t.is_duplicate, t.submitter_label,
       coalesce((select jsonb_agg(r) from jsonb_array_elements(t.remarks) r
                 where not coalesce((r ->> 'internal')::boolean, false)), '[]'::jsonb) as remarks,
       t.created_at, t.updated_at
from public.vs_tickets t
where t.submitter_id = (select auth.uid());
grant select on public.my_vs_tickets to authenticated;
