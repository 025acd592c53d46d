-- mutant: R05-shop-insert-check-allows-timeline
-- rules: R05
-- bug: the buyer's INSERT check forgot timeline = '[]', so a buyer files an order carrying a handler's timeline entries.
-- in 0310_shop_orders.sql replace:
    (buyer_id = auth.uid() and status = 'pending' and admin_note is null and timeline = '[]'::jsonb)
-- with:
    (buyer_id = auth.uid() and status = 'pending' and admin_note is null)
-- end
