-- mutant: R01-shop-guard-deny-list
-- rules: R01, R04
-- bug: the buyer guard compares a deny-list of the columns rule 4 names (amounts, admin_note, timeline, buyer_id) instead of the whole row minus an allow-list, so discount — added to the table later — is writable by the buyer.
-- in 0310_shop_orders.sql replace:
    changed := private.changed_columns(to_jsonb(old), to_jsonb(new),
      array['status', 'payment_slips', 'shipping_name', 'shipping_phone', 'shipping_address', 'buyer_note', 'updated_at']);
-- with:
    changed := array(select c from unnest(array['total', 'subtotal', 'fee', 'admin_note', 'timeline', 'buyer_id']) c where to_jsonb(old) -> c is distinct from to_jsonb(new) -> c);
-- end
