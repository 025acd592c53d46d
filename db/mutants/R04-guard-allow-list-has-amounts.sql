-- mutant: R04-guard-allow-list-has-amounts
-- rules: R04
-- bug: the buyer allow-list was widened with the amounts ("order details"), so a buyer can lower total, subtotal and fee of their own pending order.
create or replace function private.guard_shop_orders_owner_update()
returns trigger language plpgsql security definer set search_path = '' as $$
declare changed text[];
begin
  if auth.uid() is null then return new; end if;
  if old.buyer_id = auth.uid() and not public.current_user_is_shop_handler() then
    changed := private.changed_columns(to_jsonb(old), to_jsonb(new), array['status', 'payment_slips', 'shipping_name', 'shipping_phone', 'shipping_address', 'buyer_note', 'updated_at', 'total', 'subtotal', 'fee']);
    if cardinality(changed) > 0 then
      raise exception 'shop_orders: % may not be changed by the buyer', array_to_string(changed, ', ') using errcode = 'P0001';
    end if;
  end if;
  return new;
end $$;
