-- mutant: R04-guard-allow-list-has-amounts
-- rules: R04
-- bug: the buyer allow-list was widened with the amounts ("order details"), so a buyer can lower total, subtotal and fee of their own pending order.
-- in 0310_shop_orders.sql replace:
      array['status', 'payment_slips', 'shipping_name', 'shipping_phone', 'shipping_address', 'buyer_note', 'updated_at'], 'shop_orders', 'buyer');
-- with:
      array['status', 'payment_slips', 'shipping_name', 'shipping_phone', 'shipping_address', 'buyer_note', 'updated_at', 'total', 'subtotal', 'fee'], 'shop_orders', 'buyer');
-- end
