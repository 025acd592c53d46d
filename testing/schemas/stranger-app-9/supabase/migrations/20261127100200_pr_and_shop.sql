-- PR tickets (text ids handed to guests) and shop orders.

create table app.pr_tickets (
  id text primary key
    default ('PR-' || upper(encode(extensions.gen_random_bytes(5), 'hex')))
    check (id ~ '^PR-[A-Z0-9]{4,20}$'),
  submitter_id uuid not null default auth.uid() references app.users (id) on delete cascade,
  submitter_label text not null check (char_length(btrim(submitter_label)) between 1 and 80),
  brief text not null check (char_length(btrim(brief)) between 10 and 4000),
  file_url text check (file_url is null or file_url ~ '^https://[^\s]+$'),
  status text not null default 'submitted'
    check (status in ('submitted', 'reviewing', 'approved', 'rejected', 'published')),
  staff_note text check (char_length(staff_note) <= 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  deleted_by uuid references app.users (id) on delete set null
);

create trigger pr_tickets_touch before update on app.pr_tickets
  for each row execute function private.touch_updated_at();
create trigger pr_tickets_audit after insert or update or delete on app.pr_tickets
  for each row execute function audit.capture();

alter table app.pr_tickets enable row level security;

create policy pr_tickets_read on app.pr_tickets for select to authenticated
  using (deleted_at is null
         and (submitter_id = (select auth.uid()) or private.can_handle_pr()));
create policy pr_tickets_insert_own on app.pr_tickets for insert to authenticated
  with check (submitter_id = (select auth.uid()) and status = 'submitted'
              and staff_note is null and deleted_at is null);
create policy pr_tickets_insert_handler on app.pr_tickets for insert to authenticated
  with check (private.can_handle_pr() and deleted_at is null);
create policy pr_tickets_update on app.pr_tickets for update to authenticated
  using (deleted_at is null
         and (submitter_id = (select auth.uid()) or private.can_handle_pr()))
  with check (deleted_at is null
              and (submitter_id = (select auth.uid()) or private.can_handle_pr()));

grant select, insert, update on app.pr_tickets to authenticated;

create or replace function private.guard_pr_ticket_update()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (select auth.uid()) is null then
    return new;
  end if;
  if new.deleted_at is distinct from old.deleted_at
     and current_user in ('anon', 'authenticated') then
    raise exception 'tickets are deleted through soft_delete_pr_ticket'
      using errcode = '42501';
  end if;
  if private.can_handle_pr() then
    return new;
  end if;
  if (to_jsonb(new) - array['brief', 'file_url', 'submitter_label', 'updated_at'])
     is distinct from (to_jsonb(old) - array['brief', 'file_url', 'submitter_label', 'updated_at']) then
    raise exception 'submitters may only edit the brief, the file and their label'
      using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger pr_tickets_guard before update on app.pr_tickets
  for each row execute function private.guard_pr_ticket_update();

-- ---------------------------------------------------------------------------------------------
-- Shop orders
-- ---------------------------------------------------------------------------------------------
create table app.shop_orders (
  id uuid primary key default gen_random_uuid(),
  buyer_id uuid not null default auth.uid() references app.users (id) on delete cascade,
  status text not null default 'pending'
    check (status in ('pending', 'review', 'slip_mismatch', 'paid', 'shipped', 'completed',
                      'cancelled')),
  subtotal numeric(10, 2) not null default 0 check (subtotal >= 0),
  fee numeric(10, 2) not null default 0 check (fee >= 0),
  total numeric(10, 2) not null default 0 check (total >= 0),
  items jsonb not null default '[]'::jsonb check (jsonb_typeof(items) = 'array'),
  recipient_name text check (char_length(recipient_name) <= 120),
  phone text check (phone is null or phone ~ '^\+?[0-9]{9,15}$'),
  shipping_address text check (char_length(shipping_address) <= 500),
  slip_path text check (slip_path is null or slip_path ~ '^slips/[0-9a-f-]{36}/[^/]{1,200}$'),
  admin_note text check (char_length(admin_note) <= 2000),
  timeline jsonb not null default '[]'::jsonb check (jsonb_typeof(timeline) = 'array'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (total = subtotal + fee)
);

create trigger shop_orders_touch before update on app.shop_orders
  for each row execute function private.touch_updated_at();
create trigger shop_orders_audit after insert or update or delete on app.shop_orders
  for each row execute function audit.capture();

alter table app.shop_orders enable row level security;

create policy shop_orders_read on app.shop_orders for select to authenticated
  using (buyer_id = (select auth.uid()) or private.can_handle_shop());
create policy shop_orders_insert_own on app.shop_orders for insert to authenticated
  with check (buyer_id = (select auth.uid()) and status = 'pending' and admin_note is null
              and timeline = '[]'::jsonb);
create policy shop_orders_update_buyer on app.shop_orders for update to authenticated
  using (buyer_id = (select auth.uid()) and status in ('pending', 'review', 'slip_mismatch'))
  with check (buyer_id = (select auth.uid())
              and status in ('pending', 'review', 'slip_mismatch', 'cancelled'));
create policy shop_orders_handler on app.shop_orders for all to authenticated
  using (private.can_handle_shop()) with check (private.can_handle_shop());

grant select, insert, update on app.shop_orders to authenticated;
grant delete on app.shop_orders to authenticated;

-- Buyers complete their details, attach or remove the slip, submit for review or cancel.
-- Money, notes, the timeline and every other status are the shop's.
create or replace function private.guard_shop_order_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_allowed text[] := array['items', 'recipient_name', 'phone', 'shipping_address',
                            'slip_path', 'status', 'updated_at'];
begin
  if (select auth.uid()) is null or private.can_handle_shop() then
    return new;
  end if;
  if (to_jsonb(new) - v_allowed) is distinct from (to_jsonb(old) - v_allowed) then
    raise exception 'buyers cannot change amounts, notes or the timeline'
      using errcode = '42501';
  end if;
  if new.items is distinct from old.items and old.status <> 'pending' then
    raise exception 'items are fixed once the order is submitted' using errcode = '42501';
  end if;
  if new.status is distinct from old.status and new.status not in ('review', 'cancelled') then
    raise exception 'buyers cannot set status %', new.status using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger shop_orders_guard before update on app.shop_orders
  for each row execute function private.guard_shop_order_update();
