-- Campus shop: orders.
--
-- An order starts as awaiting_payment; the buyer uploads a payment slip, a moderator checks it
-- (review, slip_mismatch) and marks it paid. Buyers may keep editing their order (slips,
-- shipping details, status within their window) until it is paid; amounts, the admin note and
-- the timeline belong to the shop.

create table public.shop_orders (
  id uuid primary key default gen_random_uuid(),
  -- Human-facing order number and pickup point: required, no default (the app assigns them).
  order_code text not null unique,
  pickup_campus public.campus not null,
  buyer_id uuid not null references auth.users (id) on delete cascade,
  status text not null default 'awaiting_payment',
  item_count integer not null check (item_count >= 0),
  subtotal integer not null default 0,
  fee integer not null default 0,
  discount integer not null default 0,
  total integer not null default 0,
  admin_note text,
  timeline jsonb not null default '[]'::jsonb,
  payment_slips text[] not null default array[]::text[],
  shipping_name text,
  shipping_phone text,
  shipping_address text,
  buyer_note text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint shop_orders_status_check
    check (status in ('awaiting_payment', 'review', 'slip_mismatch', 'paid', 'shipped', 'completed', 'cancelled')),
  constraint shop_orders_amounts_check
    check (subtotal >= 0 and fee >= 0 and discount >= 0 and total >= 0)
);

create index shop_orders_buyer_id_idx on public.shop_orders (buyer_id);

revoke all on table public.shop_orders from anon, authenticated;
grant select, insert, update on table public.shop_orders to authenticated;

-- Shop staff: moderators, devs and admins, or anyone holding the 'house' permission. A member
-- without a role is never staff, whatever permissions their row carries.
create function public.is_shop_staff()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select public.current_user_role() is not null
     and (public.current_user_is_staff() or public.current_user_has_permission('house'));
$$;

revoke execute on function public.is_shop_staff() from public, anon, authenticated;
grant execute on function public.is_shop_staff() to anon, authenticated;

alter table public.shop_orders enable row level security;

create policy "Buyers see their orders, shop staff see all"
  on public.shop_orders for select
  to authenticated
  using (buyer_id = (select auth.uid()) or (select public.is_shop_staff()));

create policy "Buyers place their own orders"
  on public.shop_orders for insert
  to authenticated
  with check (
    (select public.is_shop_staff())
    or (
      buyer_id = (select auth.uid())
      and status = 'awaiting_payment'
      and admin_note is null
      and timeline = '[]'::jsonb
    )
  );

create policy "Buyers edit unpaid orders, shop staff edit all"
  on public.shop_orders for update
  to authenticated
  using (
    (select public.is_shop_staff())
    or (buyer_id = (select auth.uid()) and status in ('awaiting_payment', 'review', 'slip_mismatch'))
  )
  with check (
    (select public.is_shop_staff())
    or (buyer_id = (select auth.uid()) and status in ('awaiting_payment', 'review', 'slip_mismatch'))
  );

-- What a buyer may change on their own order: everything else must stay as it was. Written as
-- an allow-list over the whole row, so order_code, pickup_campus, item_count and any column
-- added later are protected without anyone listing them.
create function public.guard_buyer_order_edits()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  buyer_fields constant text[] := array[
    'status', 'payment_slips', 'shipping_name', 'shipping_phone', 'shipping_address', 'buyer_note', 'updated_at'
  ];
begin
  if auth.uid() is not null
     and old.buyer_id = auth.uid()
     and not public.is_shop_staff()
     and (to_jsonb(new) - buyer_fields) is distinct from (to_jsonb(old) - buyer_fields) then
    raise exception 'Only the shop can change this part of an order'
      using hint = 'buyers may change: ' || array_to_string(buyer_fields, ', ');
  end if;
  return new;
end;
$$;

revoke execute on function public.guard_buyer_order_edits() from public, anon, authenticated;

create trigger guard_buyer_order_edits
  before update on public.shop_orders
  for each row execute procedure public.guard_buyer_order_edits();

create trigger set_updated_at
  before update on public.shop_orders
  for each row execute procedure public.set_updated_at();
