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
