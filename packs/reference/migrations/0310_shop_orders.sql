-- shop_orders (spec §2; rules 1, 4, 5, 8): a buyer's order. Amounts are integers in the
-- smallest currency unit. Vocabularies, handler roles and the buyer allow-list match
-- model/settings.ts (shop).
--
-- Shop handler: role in ('staff', 'admin', 'dev') or the 'house' permission.
-- A buyer may update their own order only while its status is pending, review or
-- slip_mismatch, and only to one of those statuses (never paid); the owner guard keeps
-- total, subtotal, fee, discount, admin_note, timeline, buyer_id and id to the handlers.
create table public.shop_orders (
  id uuid primary key default gen_random_uuid(),
  buyer_id uuid not null references auth.users (id) on delete cascade,
  status text not null default 'pending'
    check (status in ('pending', 'review', 'slip_mismatch', 'paid', 'shipped', 'completed', 'cancelled')),
  subtotal integer not null default 0 check (subtotal >= 0),
  fee integer not null default 0 check (fee >= 0),
  -- Added after the guard was written: not named anywhere in the guard, guarded by default.
  discount integer not null default 0 check (discount >= 0),
  total integer not null default 0 check (total >= 0),
  admin_note text,
  timeline jsonb not null default '[]',
  payment_slips text[] not null default '{}',
  shipping_name text,
  shipping_phone text,
  shipping_address text,
  buyer_note text,
  updated_at timestamptz not null default now()
);

-- Policy helper (definer, rule 17; fails closed on a null role, rule 8).
create or replace function public.current_user_is_shop_handler() returns boolean
language sql stable security definer set search_path = ''
as $$
  select coalesce(
    public.current_user_role() is not null
    and (public.current_user_role() in ('staff', 'admin', 'dev') or public.current_user_has_permission('house')),
    false)
$$;
revoke execute on function public.current_user_is_shop_handler() from public, anon, authenticated;
grant execute on function public.current_user_is_shop_handler() to anon, authenticated;

revoke all on table public.shop_orders from anon, authenticated;
grant select, insert, update on table public.shop_orders to authenticated;

alter table public.shop_orders enable row level security;

create policy shop_orders_select on public.shop_orders for select to authenticated
  using (
    buyer_id = auth.uid()
    or public.current_user_is_shop_handler()
  );

create policy shop_orders_insert on public.shop_orders for insert to authenticated
  with check (
    (buyer_id = auth.uid() and status = 'pending' and admin_note is null and timeline = '[]'::jsonb)
    or public.current_user_is_shop_handler()
  );

-- Rule 4: the buyer's window is checked on the old row (USING) and the new row (WITH CHECK).
create policy shop_orders_update on public.shop_orders for update to authenticated
  using (
    (buyer_id = auth.uid() and status in ('pending', 'review', 'slip_mismatch'))
    or public.current_user_is_shop_handler()
  )
  with check (
    (buyer_id = auth.uid() and status in ('pending', 'review', 'slip_mismatch'))
    or public.current_user_is_shop_handler()
  );

-- Rule 1 / 4: a buyer who is not a handler may change only the allow-listed columns.
create or replace function private.guard_shop_orders_owner_update()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if auth.uid() is null then
    return new; -- server context
  end if;
  if old.buyer_id = auth.uid()
     and not public.current_user_is_shop_handler() then
    perform private.reject_outside_allow_list(to_jsonb(old), to_jsonb(new),
      array['status', 'payment_slips', 'shipping_name', 'shipping_phone', 'shipping_address', 'buyer_note', 'updated_at'], 'shop_orders', 'buyer');
  end if;
  return new;
end
$$;

create trigger shop_orders_10_owner_guard before update on public.shop_orders
  for each row execute function private.guard_shop_orders_owner_update();
create trigger shop_orders_20_touch before update on public.shop_orders
  for each row execute function private.touch_updated_at();

revoke execute on function private.guard_shop_orders_owner_update() from public, anon, authenticated;
