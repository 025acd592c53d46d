-- pr_tickets (spec §2, §4.2; rules 1, 5, 7, 8, 14): PR requests with text ids, soft-deleted
-- only through soft_delete_pr_ticket, looked up by guests through get_pr_ticket_by_id.
-- Vocabularies, handler roles and the owner allow-list match model/settings.ts (pr).
--
-- PR handler: role in ('pr_staff', 'staff', 'admin', 'dev') or the 'pr' permission (in
-- permissions or managed_permissions). On-behalf filers: roles 'uni_staff' and 'sa_prof' may
-- file a ticket whose submitter is someone else, but (owner-only SELECT) cannot read it back, so
-- they insert with return=minimal (rule 5).
create table public.pr_tickets (
  id text primary key,
  submitter_id uuid not null references auth.users (id) on delete cascade,
  submitter_label text not null,
  brief text not null,
  file_url text,
  status text not null default 'open' check (status in ('open', 'in_progress', 'done', 'rejected')),
  handler_note text,
  deleted_at timestamptz,
  updated_at timestamptz not null default now()
);

-- Policy helper (definer, rule 17; fails closed on a null role, rule 8): a PR handler holds a
-- non-null role that is a handler role, or a non-null role and the 'pr' permission.
create or replace function public.current_user_is_pr_handler() returns boolean
language sql stable security definer set search_path = ''
as $$
  select coalesce(
    public.current_user_role() is not null
    and (public.current_user_role() in ('pr_staff', 'staff', 'admin', 'dev') or public.current_user_has_permission('pr')),
    false)
$$;
revoke execute on function public.current_user_is_pr_handler() from public, anon, authenticated;
grant execute on function public.current_user_is_pr_handler() to anon, authenticated;

-- Rule 16: explicit grants; anon reaches tickets only through get_pr_ticket_by_id. No DELETE:
-- tickets are soft-deleted through the function (rule 7).
revoke all on table public.pr_tickets from anon, authenticated;
grant select, insert, update on table public.pr_tickets to authenticated;

alter table public.pr_tickets enable row level security;

-- Rule 7: reads filter deleted_at is null, for everyone on the REST path.
create policy pr_tickets_select on public.pr_tickets for select to authenticated
  using (
    deleted_at is null
    and (submitter_id = auth.uid()
         or public.current_user_is_pr_handler())
  );

create policy pr_tickets_insert on public.pr_tickets for insert to authenticated
  with check (
    deleted_at is null and status = 'open' and handler_note is null
    and (submitter_id = auth.uid()
         or public.current_user_is_pr_handler()
         or public.current_user_role() in ('uni_staff', 'sa_prof'))
  );

-- Rule 7: deleted_at is never set through PATCH (WITH CHECK keeps it null).
create policy pr_tickets_update on public.pr_tickets for update to authenticated
  using (
    deleted_at is null
    and (submitter_id = auth.uid()
         or public.current_user_is_pr_handler())
  )
  with check (
    deleted_at is null
    and (submitter_id = auth.uid()
         or public.current_user_is_pr_handler())
  );

-- The predicate soft_delete_pr_ticket re-checks (DELETE itself is not granted).
create policy pr_tickets_delete on public.pr_tickets for delete to authenticated
  using (
    deleted_at is null
    and public.current_user_is_pr_handler()
  );

-- Rule 1: a submitter who is not a PR handler may change only the allow-listed columns.
create or replace function private.guard_pr_tickets_owner_update()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if auth.uid() is null then
    return new; -- server context
  end if;
  if old.submitter_id = auth.uid()
     and not public.current_user_is_pr_handler() then
    perform private.reject_outside_allow_list(to_jsonb(old), to_jsonb(new),
      array['brief', 'file_url', 'updated_at'], 'pr_tickets', 'submitter');
  end if;
  return new;
end
$$;

create trigger pr_tickets_10_owner_guard before update on public.pr_tickets
  for each row execute function private.guard_pr_tickets_owner_update();
create trigger pr_tickets_20_touch before update on public.pr_tickets
  for each row execute function private.touch_updated_at();

-- Guest lookup (rule 14): case-insensitive exact match after trimming whitespace on both
-- sides, no pattern operator; deleted tickets excluded (rule 7); a sanitized row.
create or replace function public.get_pr_ticket_by_id(p_id text)
returns table (id text, submitter_label text, brief text, file_url text, status text)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.submitter_label, t.brief, t.file_url, t.status
  from public.pr_tickets t
  where t.deleted_at is null
    and lower(btrim(t.id, E' \t\r\n')) = lower(btrim(p_id, E' \t\r\n'))
$$;

-- Soft delete (rule 7): signed-in staff only, null role rejected (rule 8), then the DELETE
-- policy's predicates re-checked; the id is compared by equality (rule 14). Returns whether a
-- ticket was deleted.
create or replace function public.soft_delete_pr_ticket(p_id text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  n integer;
begin
  if auth.uid() is null or public.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  if not public.current_user_is_staff() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  if not public.current_user_is_pr_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  update public.pr_tickets t set deleted_at = now() where t.id = p_id and t.deleted_at is null;
  get diagnostics n = row_count;
  return n > 0;
end
$$;

-- Rule 15: named grants only.
revoke execute on function private.guard_pr_tickets_owner_update() from public, anon, authenticated;
revoke execute on function public.get_pr_ticket_by_id(text), public.soft_delete_pr_ticket(text) from public, anon, authenticated, service_role;
grant execute on function public.get_pr_ticket_by_id(text) to anon, authenticated, service_role;
grant execute on function public.soft_delete_pr_ticket(text) to authenticated, service_role;
