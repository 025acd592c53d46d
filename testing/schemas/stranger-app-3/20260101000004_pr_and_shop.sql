-- PR tickets (text ids with a format CHECK) and shop orders (partitioned by range of created_at,
-- integer amounts with a multi-column CHECK, the buyer filled by a column default).

create sequence public.pr_ticket_no start 1;

create table public.pr_tickets (
  id text primary key default ('PR-' || lpad(nextval('public.pr_ticket_no')::text, 4, '0'))
    check (id ~ '^PR-[0-9A-Z]{4,}$'),
  submitter_id uuid not null default auth.uid() references public.users (id),
  submitter_label text not null default '',
  brief text not null check (length(brief) between 1 and 4000),
  file_url text check (file_url is null or file_url ~ '^https://'),
  status text not null default 'new' check (status in ('new', 'in_review', 'done', 'rejected')),
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create trigger pr_tickets_updated_at before update on public.pr_tickets
  for each row execute function extensions.moddatetime(updated_at);

grant select, insert, update on public.pr_tickets to authenticated;
grant all on public.pr_tickets to service_role;
revoke all on public.pr_tickets from anon;
alter table public.pr_tickets enable row level security;

create policy pr_tickets_select on public.pr_tickets for select to authenticated
  using (deleted_at is null and (submitter_id = (select auth.uid()) or private.can_handle_pr()));
create policy pr_tickets_insert on public.pr_tickets for insert to authenticated
  with check (submitter_id = (select auth.uid()) and deleted_at is null and status = 'new');
create policy pr_tickets_update on public.pr_tickets for update to authenticated
  using (deleted_at is null and (submitter_id = (select auth.uid()) or private.can_handle_pr()))
  with check (deleted_at is null and (submitter_id = (select auth.uid()) or private.can_handle_pr()));
create policy pr_tickets_delete on public.pr_tickets for delete to authenticated
  using (public.current_user_is_staff() and private.can_handle_pr());

create function private.guard_pr_tickets() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  allowed constant text[] := array['brief', 'file_url', 'updated_at'];
begin
  if auth.uid() is null or private.trusted_write() then
    return new;
  end if;
  if new.deleted_at is distinct from old.deleted_at then
    raise exception 'pr_tickets: deleted_at changes only through soft_delete_pr_ticket'
      using errcode = '42501';
  end if;
  if old.submitter_id = auth.uid() and not private.can_handle_pr()
     and (to_jsonb(new) - allowed) is distinct from (to_jsonb(old) - allowed) then
    raise exception 'pr_tickets: a submitter may change only %', allowed using errcode = '42501';
  end if;
  return new;
end $$;
create trigger pr_tickets_guard before update on public.pr_tickets
  for each row execute function private.guard_pr_tickets();

-- Guest lookup: equality on the trimmed, case-folded id; deleted tickets excluded (rules 7, 14).
create function public.get_pr_ticket_by_id(p_id text)
returns table (id text, submitter_label text, brief text, file_url text, status text,
               created_at timestamptz)
language sql stable security definer set search_path = ''
as $$
  select t.id, t.submitter_label, t.brief, t.file_url, t.status, t.created_at
  from public.pr_tickets t
  -- Fixed after policyfuzz R14: btrim() trimmed spaces only, and the spec trims whitespace (a tab).
  where lower(btrim(t.id, E' \t\r\n')) = lower(btrim(p_id, E' \t\r\n')) and t.deleted_at is null
$$;

create function public.soft_delete_pr_ticket(p_id text) returns void
language plpgsql security definer set search_path = ''
as $$
begin
  if auth.uid() is null or public.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if not (public.current_user_is_staff() and private.can_handle_pr()) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  perform set_config('app.trusted_write', 'on', true);
  update public.pr_tickets t set deleted_at = now() where t.id = p_id and t.deleted_at is null;
  if not found then
    raise exception 'ticket % not found', p_id using errcode = 'P0002';
  end if;
  perform set_config('app.trusted_write', '', true);
end $$;

revoke execute on function public.soft_delete_pr_ticket(text) from public, anon;
revoke execute on function public.get_pr_ticket_by_id(text) from public;
grant execute on function public.get_pr_ticket_by_id(text) to anon, authenticated;

-- ---------------------------------------------------------------------------------------------
create table public.shop_orders (
  id uuid not null default gen_random_uuid(),
  created_at timestamptz not null default now(),
  buyer_id uuid not null default auth.uid() references public.users (id),
  status text not null default 'pending'
    check (status in ('pending', 'review', 'slip_mismatch', 'paid', 'shipped', 'completed', 'cancelled')),
  subtotal integer not null default 0 check (subtotal >= 0),
  fee integer not null default 0 check (fee >= 0),
  total integer not null default 0,
  admin_note text,
  timeline jsonb not null default '[]' check (jsonb_typeof(timeline) = 'array'),
  slip_urls text[] not null default '{}',
  contact_phone public.phone_number,
  shipping_address text,
  updated_at timestamptz not null default now(),
  primary key (id, created_at),
  check (total = subtotal + fee)
) partition by range (created_at);

create table public.shop_orders_2025 partition of public.shop_orders
  for values from ('2025-01-01') to ('2026-01-01');
create table public.shop_orders_2026 partition of public.shop_orders
  for values from ('2026-01-01') to ('2027-01-01');
create table public.shop_orders_default partition of public.shop_orders default;

create trigger shop_orders_updated_at before update on public.shop_orders
  for each row execute function extensions.moddatetime(updated_at);

-- Partitions are reachable by name through the API: no grants there, and row security on too.
revoke all on public.shop_orders_2025, public.shop_orders_2026, public.shop_orders_default
  from anon, authenticated;
alter table public.shop_orders_2025 enable row level security;
alter table public.shop_orders_2026 enable row level security;
alter table public.shop_orders_default enable row level security;

grant select, insert, update on public.shop_orders to authenticated;
grant all on public.shop_orders to service_role;
revoke all on public.shop_orders from anon;
alter table public.shop_orders enable row level security;

create policy shop_orders_select on public.shop_orders for select to authenticated
  using (buyer_id = (select auth.uid()) or private.can_manage_shop());
create policy shop_orders_insert on public.shop_orders for insert to authenticated
  with check (buyer_id = (select auth.uid()) and status = 'pending' and admin_note is null
              and timeline = '[]');
-- Rule 4: the buyer's window is the USING (old row) and the WITH CHECK (new row): no `paid`.
create policy shop_orders_update_buyer on public.shop_orders for update to authenticated
  using (buyer_id = (select auth.uid()) and status in ('pending', 'review', 'slip_mismatch'))
  with check (buyer_id = (select auth.uid()) and status in ('pending', 'review', 'slip_mismatch'));
create policy shop_orders_update_admin on public.shop_orders for update to authenticated
  using (private.can_manage_shop()) with check (private.can_manage_shop());
create policy shop_orders_delete on public.shop_orders for delete to authenticated
  using (private.can_manage_shop());

create function private.guard_shop_orders() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  allowed constant text[] := array['slip_urls', 'contact_phone', 'shipping_address', 'status', 'updated_at'];
begin
  if auth.uid() is null or private.can_manage_shop() then
    return new;
  end if;
  if old.buyer_id = auth.uid() then
    if (to_jsonb(new) - allowed) is distinct from (to_jsonb(old) - allowed) then
      raise exception 'shop_orders: a buyer may change only %', allowed using errcode = '42501';
    end if;
    if new.status = 'paid' and old.status <> 'paid' then
      raise exception 'shop_orders: a buyer cannot mark an order paid' using errcode = '42501';
    end if;
  end if;
  return new;
end $$;
create trigger shop_orders_guard before update on public.shop_orders
  for each row execute function private.guard_shop_orders();

revoke execute on all functions in schema private from public, anon, authenticated;
grant execute on function private.is_admin(), private.can_handle_vs(text), private.can_handle_pr(),
  private.can_manage_shop(), private.can_manage_students() to anon, authenticated;
