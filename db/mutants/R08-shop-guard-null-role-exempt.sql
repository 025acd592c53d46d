-- mutant: R08-shop-guard-null-role-exempt
-- rules: R08, R04
-- bug: the buyer guard applies when "role not in (handler roles)"; for a null role that is null, not true, so a buyer with no role (or no users row) changes the amounts.
create or replace function private.guard_shop_orders_owner_update()
returns trigger language plpgsql security definer set search_path = '' as $$
declare changed text[];
begin
  if auth.uid() is null then return new; end if;
  if old.buyer_id = auth.uid() and public.current_user_role() not in ('staff', 'admin', 'dev') and not public.current_user_has_permission('house') then
    changed := private.changed_columns(to_jsonb(old), to_jsonb(new),
      array['status', 'payment_slips', 'shipping_name', 'shipping_phone', 'shipping_address', 'buyer_note', 'updated_at']);
    if cardinality(changed) > 0 then
      raise exception 'shop_orders: % may not be changed by the buyer', array_to_string(changed, ', ') using errcode = 'P0001';
    end if;
  end if;
  return new;
end $$;
