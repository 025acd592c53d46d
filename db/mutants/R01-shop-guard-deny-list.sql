-- mutant: R01-shop-guard-deny-list
-- rules: R01, R04
-- bug: the buyer guard compares a deny-list of the columns rule 4 names (amounts, admin_note, timeline, buyer_id) instead of the whole row minus an allow-list, so discount — added to the table later — is writable by the buyer.
create or replace function private.guard_shop_orders_owner_update()
returns trigger language plpgsql security definer set search_path = '' as $$
declare changed text[];
begin
  if auth.uid() is null then return new; end if;
  if old.buyer_id = auth.uid() and not public.current_user_is_shop_handler() then
    changed := array(select c from unnest(array['total', 'subtotal', 'fee', 'admin_note', 'timeline', 'buyer_id']) c where to_jsonb(old) -> c is distinct from to_jsonb(new) -> c);
    if cardinality(changed) > 0 then
      raise exception 'shop_orders: % may not be changed by the buyer', array_to_string(changed, ', ') using errcode = 'P0001';
    end if;
  end if;
  return new;
end $$;
