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
