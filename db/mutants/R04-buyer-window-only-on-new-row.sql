-- mutant: R04-buyer-window-only-on-new-row
-- rules: R04
-- bug: the buyer's status window is checked on the new row only (WITH CHECK), so a buyer reopens a paid or shipped order by setting it back to pending.
alter policy shop_orders_update on public.shop_orders
  using (buyer_id = auth.uid() or public.current_user_is_shop_handler());
