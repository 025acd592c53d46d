-- mutant: R04-buyer-window-only-on-new-row
-- rules: R04
-- bug: the buyer's status window is checked on the new row only (WITH CHECK), so a buyer reopens a paid or shipped order by setting it back to pending.
-- in 0310_shop_orders.sql replace:
  using (
    (buyer_id = auth.uid() and status in ('pending', 'review', 'slip_mismatch'))
-- with:
  using (
    buyer_id = auth.uid()
-- end
