-- mutant: R04-buyer-window-only-on-old-row
-- rules: R04
-- bug: the buyer's status window is checked on the old row only (USING); WITH CHECK just asks for ownership, so a buyer marks their own order paid.
-- in 0310_shop_orders.sql replace:
  with check (
    (buyer_id = auth.uid() and status in ('pending', 'review', 'slip_mismatch'))
-- with:
  with check (
    buyer_id = auth.uid()
-- end
