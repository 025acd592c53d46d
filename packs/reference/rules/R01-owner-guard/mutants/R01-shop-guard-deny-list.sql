-- mutant: R01-shop-guard-deny-list
-- rules: R01, R04
-- bug: the buyer guard compares a deny-list of the columns rule 4 names (amounts, admin_note, timeline, buyer_id) instead of the whole row minus an allow-list, so discount — added to the table later — is writable by the buyer.
-- in 0310_shop_orders.sql replace:
    perform private.reject_outside_allow_list(to_jsonb(old), to_jsonb(new),
      array['status', 'payment_slips', 'shipping_name', 'shipping_phone', 'shipping_address', 'buyer_note', 'updated_at'], 'shop_orders', 'buyer');
-- with:
    if exists (select 1 from unnest(array['total', 'subtotal', 'fee', 'admin_note', 'timeline', 'buyer_id']) c
               where to_jsonb(old) -> c is distinct from to_jsonb(new) -> c) then
      raise exception 'shop_orders: a privileged column may not be changed by the buyer' using errcode = 'P0001';
    end if;
-- end
