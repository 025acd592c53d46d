-- VS tickets (spec §2, §4.2; rules 1, 3, 6, 7, 8, 9, 12, 13, 14). Vocabularies, caps and who
-- counts as a handler match model/settings.ts (settings.vs):
--   VS handler:   a non-null role in (vs_staff, vp_admin, admin, dev), or any non-null role holding
--                 the permission 'vs' in permissions or managed_permissions;
--   dept-scoped:  vp_admin, and handlers only through the permission: their scope is
--                 target_dept = current_user_dept() (nothing when their department is null);
--   unrestricted: vs_staff, admin, dev.
-- Definer functions that write set app.vs_trusted for their own statement, so the table's
-- guards (meant for direct API writes) let the function's checked write through.

create table public.vs_categories (
  id text primary key,
  name text not null default '',
  -- nullable on purpose: an unknown flag is treated as confidential / not public-eligible (rule 8)
  is_confidential boolean default true,
  public_eligible boolean default false
);

revoke all on table public.vs_categories from anon, authenticated;
grant select on table public.vs_categories to anon, authenticated;
alter table public.vs_categories enable row level security;
create policy vs_categories_select on public.vs_categories for select to anon, authenticated using (true);

create table public.vs_tickets (
  id text primary key,
  submitter_id uuid,
  submitter_label text not null default 'student',
  target_dept text not null check (target_dept in ('ENG', 'SCI', 'ART', 'LAW', 'SE')),
  status text not null default 'open' check (status in ('open', 'in_progress', 'resolved', 'closed')),
  -- no foreign key: a category may be deleted later, and then no longer resolves (rule 8)
  category text,
  is_public boolean not null default false,
  public_title text,
  duplicate_of text,
  is_duplicate boolean generated always as (duplicate_of is not null) stored,
  -- the public board's handle: never the ticket id, which is the submitter's tracking capability
  public_ref text generated always as ('pub-' || substr(md5(id), 1, 16)) stored,
  tags text[] not null default '{}',
  remarks jsonb not null default '[]'
    check (case when jsonb_typeof(remarks) = 'array' then jsonb_array_length(remarks) <= 20 else false end),
  public_comments jsonb not null default '[]'
    check (case when jsonb_typeof(public_comments) = 'array' then jsonb_array_length(public_comments) <= 50 else false end),
  -- the submitter's raw report: never published (rule 13)
  report text not null default '',
  deleted_at timestamptz,
  updated_at timestamptz not null default now()
);

-- Policy helpers about the caller only (rule 17: definer, so no policy depends on users' rules).
create or replace function public.current_user_is_vs_handler() returns boolean
language sql stable security definer set search_path = ''
as $$
  select coalesce(public.current_user_role() is not null
    and (public.current_user_role() in ('vs_staff', 'vp_admin', 'admin', 'dev')
         or public.current_user_has_permission('vs')), false)
$$;

-- Rule 9: the one statement of a handler's scope, used by the policies and every definer function.
create or replace function public.vs_in_scope(p_dept text) returns boolean
language sql stable security definer set search_path = ''
as $$
  select coalesce(public.current_user_is_vs_handler()
    and (public.current_user_role() in ('vs_staff', 'admin', 'dev')
         or p_dept = public.current_user_dept()), false)
$$;

-- The DELETE policy's predicate, re-checked by soft_delete_vs_ticket.
create or replace function public.vs_can_delete(p_dept text) returns boolean
language sql stable security definer set search_path = ''
as $$ select coalesce(public.current_user_is_staff() and public.vs_in_scope(p_dept), false) $$;

revoke execute on function public.current_user_is_vs_handler(), public.vs_in_scope(text), public.vs_can_delete(text)
  from public, anon, authenticated;
grant execute on function public.current_user_is_vs_handler(), public.vs_in_scope(text), public.vs_can_delete(text)
  to anon, authenticated;

revoke all on table public.vs_tickets from anon, authenticated;
grant select, insert, update on table public.vs_tickets to authenticated;
alter table public.vs_tickets enable row level security;

-- Reads filter deleted_at is null (rule 7); a submitter reads their own tickets, a handler their scope.
create policy vs_tickets_select on public.vs_tickets for select to authenticated
  using (deleted_at is null and (submitter_id = auth.uid() or public.vs_in_scope(target_dept)));

-- A submission is the caller's own, by a caller with a role, with nothing staff-owned set.
create policy vs_tickets_insert on public.vs_tickets for insert to authenticated
  with check (submitter_id = auth.uid() and public.current_user_role() is not null and deleted_at is null
    and not is_public and public_title is null and duplicate_of is null and status = 'open'
    and tags = '{}' and remarks = '[]'::jsonb and public_comments = '[]'::jsonb);

-- Rule 6: WITH CHECK is the SELECT scope, so a move out of it fails with 42501.
create policy vs_tickets_update on public.vs_tickets for update to authenticated
  using (deleted_at is null and (submitter_id = auth.uid() or public.vs_in_scope(target_dept)))
  with check (deleted_at is null and (submitter_id = auth.uid() or public.vs_in_scope(target_dept)));

-- No DELETE grant: tickets are soft-deleted through soft_delete_vs_ticket, which re-checks this.
create policy vs_tickets_delete on public.vs_tickets for delete to authenticated
  using (deleted_at is null and public.vs_can_delete(target_dept));

-- Rules 1, 3, 7 for direct API writes (server contexts and the checked writes of the definer
-- functions are not guarded).
create or replace function private.guard_vs_tickets_update()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  old_len int;
  e jsonb;
begin
  if auth.uid() is null or coalesce(current_setting('app.vs_trusted', true), '') = 'on' then
    return new;
  end if;
  -- Rule 7: soft delete runs through soft_delete_vs_ticket, never a PATCH of deleted_at.
  if new.deleted_at is distinct from old.deleted_at then
    raise exception 'vs_tickets: deleted_at is set only by soft_delete_vs_ticket' using errcode = 'P0001';
  end if;
  -- Rule 1 / 3: a submitter who is not a handler in scope changes only the allow-list.
  if old.submitter_id = auth.uid() and not public.vs_in_scope(old.target_dept) then
    perform private.reject_outside_allow_list(to_jsonb(old), to_jsonb(new),
      array['remarks', 'updated_at', 'is_duplicate', 'public_ref'], 'vs_tickets', 'submitter');
  end if;
  -- Rule 3: remarks are append-only.
  old_len := jsonb_array_length(old.remarks);
  if jsonb_typeof(new.remarks) is distinct from 'array' or jsonb_array_length(new.remarks) < old_len
     or (select coalesce(jsonb_agg(x.e order by x.n), '[]'::jsonb)
           from jsonb_array_elements(new.remarks) with ordinality x(e, n) where x.n <= old_len) <> old.remarks then
    raise exception 'vs_tickets: remarks are append-only' using errcode = 'P0001';
  end if;
  -- Rule 3: a submitter's entry has vis 'ticket', is attributed to the submitter label, is not internal.
  if old.submitter_id = auth.uid() and not public.vs_in_scope(old.target_dept) then
    for e in select x.e from jsonb_array_elements(new.remarks) with ordinality x(e, n) where x.n > old_len loop
      if jsonb_typeof(e) <> 'object' or (e -> 'vis') is distinct from '"ticket"'::jsonb
         or (e -> 'by') is distinct from to_jsonb(old.submitter_label)
         or (e ? 'internal' and (e -> 'internal') is distinct from 'false'::jsonb) then
        raise exception 'vs_tickets: a submitter''s remark must be a ticket remark by the submitter label'
          using errcode = 'P0001';
      end if;
    end loop;
  end if;
  -- Rule 12: an appended entry that the submitter would see carries no other ticket's id.
  if private.vs_remarks_leak_id(old.id, (select coalesce(jsonb_agg(x.e order by x.n), '[]'::jsonb)
       from jsonb_array_elements(new.remarks) with ordinality x(e, n) where x.n > old_len)) then
    raise exception 'vs_tickets: a ticket-visible remark carries another ticket''s id' using errcode = 'P0001';
  end if;
  return new;
end
$$;

create trigger vs_tickets_10_guard before update on public.vs_tickets
  for each row execute function private.guard_vs_tickets_update();
create trigger vs_tickets_20_touch before update on public.vs_tickets
  for each row execute function private.touch_updated_at();

-- Rule 12: the remarks a submitter sees: ticket-visible entries that are not internal.
create or replace function private.vs_submitter_remarks(p_remarks jsonb) returns jsonb
language sql immutable set search_path = ''
as $$
  select coalesce(jsonb_agg(x.e order by x.n), '[]'::jsonb)
  from jsonb_array_elements(p_remarks) with ordinality x(e, n)
  where jsonb_typeof(x.e) = 'object' and (x.e -> 'vis') = '"ticket"'::jsonb
    and (x.e -> 'internal') is distinct from 'true'::jsonb
$$;

-- Rule 12: does an entry of p_entries that the submitter would see carry the id of a ticket other
-- than p_own? Any text of the entry counts; an id is bounded by non-alphanumerics (VS-1 is not
-- found in VS-10). Definer: every ticket's id counts, whatever the writer's scope.
create or replace function private.vs_remarks_leak_id(p_own text, p_entries jsonb) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1
    from jsonb_array_elements(private.vs_submitter_remarks(coalesce(p_entries, '[]'::jsonb))) x(e)
    join public.vs_tickets o on o.id is distinct from p_own and o.id <> ''
      and x.e::text ~ ('(^|[^A-Za-z0-9])' || regexp_replace(o.id, '([.*+?^{}()|\[\]\\$])', '\\\1', 'g') || '($|[^A-Za-z0-9])'))
$$;

-- Rules 8 / 13: a category is public only when it exists, is known not confidential and is
-- known public-eligible. Every public function asks this one question.
create or replace function private.vs_category_public(p_category text) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.vs_categories c
    where c.id = p_category and c.is_confidential is false and c.public_eligible is true)
$$;

-- Rule 13: on the public board: published, not deleted, public category, a staff headline.
create or replace function private.vs_on_board(p_ticket public.vs_tickets) returns boolean
language sql stable security definer set search_path = ''
as $$
  select p_ticket.deleted_at is null and p_ticket.is_public
    and p_ticket.public_title is not null and btrim(p_ticket.public_title) <> ''
    and private.vs_category_public(p_ticket.category)
$$;

revoke all on function private.guard_vs_tickets_update(), private.vs_submitter_remarks(jsonb), private.vs_remarks_leak_id(text, jsonb),
  private.vs_category_public(text), private.vs_on_board(public.vs_tickets) from public, anon, authenticated;

-- Submitter tracking by exact id (rules 12, 14): an explicit allow-list, sanitised.
create or replace function public.get_vs_ticket_by_id(p_id text)
returns table (id text, submitter_label text, target_dept text, status text, category text, is_public boolean,
  public_title text, duplicate_of text, is_duplicate boolean, tags text[], remarks jsonb, report text,
  updated_at timestamptz)
language sql stable security definer set search_path = ''
as $$
  select t.id, t.submitter_label, t.target_dept, t.status, t.category, t.is_public, t.public_title,
    null::text, t.is_duplicate, '{}'::text[], private.vs_submitter_remarks(t.remarks), t.report, t.updated_at
  from public.vs_tickets t
  where t.id = p_id and t.deleted_at is null
$$;

-- Rule 7: staff only, re-checking the DELETE policy's predicate; a null role fails closed.
create or replace function public.soft_delete_vs_ticket(p_id text) returns boolean
language plpgsql security definer set search_path = ''
as $$
declare
  n int;
begin
  if public.current_user_role() is null or not public.current_user_is_staff() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  perform set_config('app.vs_trusted', 'on', true);
  update public.vs_tickets t set deleted_at = now()
   where t.id = p_id and t.deleted_at is null and public.vs_can_delete(t.target_dept);
  get diagnostics n = row_count;
  perform set_config('app.vs_trusted', '', true);
  return n > 0;
end
$$;

-- Rule 9: tickets in the same category as p_id, within the caller's scope.
create or replace function public.find_similar_vs_tickets(p_id text)
returns table (id text, target_dept text, status text, category text, duplicate_of text, is_duplicate boolean)
language plpgsql stable security definer set search_path = ''
as $$
begin
  if not public.current_user_is_vs_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  return query
    select t.id, t.target_dept, t.status, t.category, t.duplicate_of, t.is_duplicate
    from public.vs_tickets s
    join public.vs_tickets t on t.category = s.category and t.id <> s.id
    where s.id = p_id and s.deleted_at is null and public.vs_in_scope(s.target_dept)
      and t.deleted_at is null and public.vs_in_scope(t.target_dept);
end
$$;

-- Rules 9, 12: merge p_duplicate into p_primary; both in scope, same department. The duplicate
-- is closed with an internal id-bearing remark and a generic one for the submitter.
create or replace function public.merge_vs_tickets(p_duplicate text, p_primary text) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  d public.vs_tickets;
  p public.vs_tickets;
begin
  if not public.current_user_is_vs_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  select * into d from public.vs_tickets t where t.id = p_duplicate and t.deleted_at is null and public.vs_in_scope(t.target_dept);
  if not found then raise exception 'merge: ticket not found' using errcode = 'P0001'; end if;
  select * into p from public.vs_tickets t where t.id = p_primary and t.deleted_at is null and public.vs_in_scope(t.target_dept);
  if not found then raise exception 'merge: ticket not found' using errcode = 'P0001'; end if;
  if d.id = p.id then raise exception 'merge: a ticket cannot be merged into itself' using errcode = 'P0001'; end if;
  if d.target_dept <> p.target_dept then raise exception 'merge: cross-department merge' using errcode = 'P0001'; end if;
  if p.duplicate_of is not null then raise exception 'merge: the primary is itself a duplicate' using errcode = 'P0001'; end if;
  perform set_config('app.vs_trusted', 'on', true);
  update public.vs_tickets t
     set duplicate_of = p.id, status = 'closed',
         remarks = t.remarks || jsonb_build_array(
           jsonb_build_object('vis', 'staff', 'by', 'system', 'internal', true, 'text', 'merged into ' || p.id),
           jsonb_build_object('vis', 'ticket', 'by', 'system', 'internal', false,
             'text', 'This report was closed because the same problem is already being handled.'))
   where t.id = d.id;
  perform set_config('app.vs_trusted', '', true);
end
$$;

-- Rules 6, 8: the one way to move a ticket out of a department; the timeline is appended in the
-- same statement. A null or blank destination is rejected.
create or replace function public.vs_transfer_dept(p_id text, p_dept text, p_remarks jsonb default '[]'::jsonb) returns void
language plpgsql security definer set search_path = ''
as $$
begin
  if not public.current_user_is_vs_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  if p_dept is null or btrim(p_dept) = '' then
    raise exception 'transfer: a destination department is required' using errcode = 'P0001';
  end if;
  if p_remarks is not null and jsonb_typeof(p_remarks) <> 'array' then
    raise exception 'transfer: p_remarks must be an array' using errcode = 'P0001';
  end if;
  if private.vs_remarks_leak_id(p_id, p_remarks) then
    raise exception 'transfer: a ticket-visible remark carries another ticket''s id' using errcode = 'P0001';
  end if;
  perform set_config('app.vs_trusted', 'on', true);
  update public.vs_tickets t
     set target_dept = p_dept, remarks = t.remarks || coalesce(p_remarks, '[]'::jsonb)
   where t.id = p_id and t.deleted_at is null and public.vs_in_scope(t.target_dept);
  if not found then raise exception 'transfer: ticket not found' using errcode = 'P0001'; end if;
  perform set_config('app.vs_trusted', '', true);
end
$$;

-- Rule 13: the student's raw report is never published verbatim: a headline or public comment
-- that contains the (non-blank) report is refused.
create or replace function private.vs_repeats_report(p_text text, p_report text) returns boolean
language sql immutable set search_path = ''
as $$ select coalesce(btrim(p_report), '') <> '' and strpos(coalesce(p_text, ''), btrim(p_report)) > 0 $$;
revoke all on function private.vs_repeats_report(text, text) from public, anon, authenticated;

-- Rule 13: publishing needs a staff headline and a public category (unknown category: refused).
create or replace function public.vs_set_public(p_id text, p_public boolean, p_title text default null) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  t public.vs_tickets;
begin
  if not public.current_user_is_vs_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  if p_public is null then raise exception 'publish: p_public is required' using errcode = 'P0001'; end if;
  select * into t from public.vs_tickets x where x.id = p_id and x.deleted_at is null and public.vs_in_scope(x.target_dept);
  if not found then raise exception 'publish: ticket not found' using errcode = 'P0001'; end if;
  perform set_config('app.vs_trusted', 'on', true);
  if p_public then
    if p_title is null or btrim(p_title) = '' then
      raise exception 'publish: a headline written by staff is required' using errcode = 'P0001';
    end if;
    if not private.vs_category_public(t.category) then
      raise exception 'publish: the category is not public' using errcode = 'P0001';
    end if;
    if private.vs_repeats_report(p_title, t.report) then
      raise exception 'publish: the headline repeats the report' using errcode = 'P0001';
    end if;
    update public.vs_tickets x set is_public = true, public_title = p_title where x.id = t.id;
  else
    update public.vs_tickets x set is_public = false where x.id = t.id;
  end if;
  perform set_config('app.vs_trusted', '', true);
end
$$;

-- Rule 13: a comment on a problem that is on the board, by a caller with a role.
create or replace function public.vs_post_public_comment(p_ref text, p_body text) returns void
language plpgsql security definer set search_path = ''
as $$
begin
  if public.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  if p_body is null or btrim(p_body) = '' then
    raise exception 'comment: a body is required' using errcode = 'P0001';
  end if;
  if exists (select 1 from public.vs_tickets t where t.public_ref = p_ref and private.vs_on_board(t) and private.vs_repeats_report(p_body, t.report)) then
    raise exception 'comment: the comment repeats the report' using errcode = 'P0001';
  end if;
  perform set_config('app.vs_trusted', 'on', true);
  update public.vs_tickets t
     set public_comments = t.public_comments || jsonb_build_array(jsonb_build_object(
       'by', case when public.current_user_is_vs_handler() then 'staff' else 'member' end, 'body', p_body))
   where t.public_ref = p_ref and private.vs_on_board(t);
  if not found then raise exception 'comment: problem not found' using errcode = 'P0001'; end if;
  perform set_config('app.vs_trusted', '', true);
end
$$;

create or replace function public.get_public_vs_board()
returns table (public_ref text, public_title text, category text, status text, target_dept text)
language sql stable security definer set search_path = ''
as $$
  select t.public_ref, t.public_title, t.category, t.status, t.target_dept
  from public.vs_tickets t where private.vs_on_board(t)
$$;

create or replace function public.get_public_vs_problem(p_ref text)
returns table (public_ref text, public_title text, category text, status text, target_dept text, comments jsonb)
language sql stable security definer set search_path = ''
as $$
  select t.public_ref, t.public_title, t.category, t.status, t.target_dept, t.public_comments
  from public.vs_tickets t where t.public_ref = p_ref and private.vs_on_board(t)
$$;

-- Rules 12, 13: for a submitter's ticket (by exact id) merged into a public problem, that
-- problem's public face; never the primary's id.
create or replace function public.get_vs_linked_context(p_id text)
returns table (public_ref text, public_title text, status text)
language sql stable security definer set search_path = ''
as $$
  select p.public_ref, p.public_title, p.status
  from public.vs_tickets d
  join public.vs_tickets p on p.id = d.duplicate_of
  where d.id = p_id and d.deleted_at is null and private.vs_on_board(p)
$$;

-- Rule 15: named grants only.
revoke execute on function public.get_vs_ticket_by_id(text), public.soft_delete_vs_ticket(text),
  public.find_similar_vs_tickets(text), public.merge_vs_tickets(text, text), public.vs_transfer_dept(text, text, jsonb),
  public.vs_set_public(text, boolean, text), public.vs_post_public_comment(text, text), public.get_public_vs_board(),
  public.get_public_vs_problem(text), public.get_vs_linked_context(text)
  from public, anon, authenticated;
grant execute on function public.get_vs_ticket_by_id(text), public.get_public_vs_board(),
  public.get_public_vs_problem(text), public.get_vs_linked_context(text) to anon, authenticated;
grant execute on function public.soft_delete_vs_ticket(text), public.find_similar_vs_tickets(text),
  public.merge_vs_tickets(text, text), public.vs_transfer_dept(text, text, jsonb), public.vs_set_public(text, boolean, text),
  public.vs_post_public_comment(text, text) to authenticated;
