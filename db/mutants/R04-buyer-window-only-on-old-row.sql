-- mutant: R04-buyer-window-only-on-old-row
-- rules: R04
-- bug: the buyer's status window is checked on the old row only (USING); WITH CHECK just asks for ownership, so a buyer marks their own order paid.
alter policy shop_orders_update on public.shop_orders
  using ((buyer_id = auth.uid() and status in ('pending', 'review', 'slip_mismatch')) or public.current_user_is_shop_handler())
  with check (buyer_id = auth.uid() or public.current_user_is_shop_handler());
