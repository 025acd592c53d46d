-- Security fix: a customer could move their own order to "paid" (WITH CHECK did not re-check the window).
DROP POLICY "customers edit open orders" ON public.orders;
CREATE POLICY "customers edit open orders" ON public.orders FOR UPDATE TO authenticated
  USING ((customer_id = auth.uid() AND status IN ('awaiting', 'checking', 'slip_rejected')) OR app.is_shopkeeper())
  WITH CHECK ((customer_id = auth.uid() AND status IN ('awaiting', 'checking', 'slip_rejected')) OR app.is_shopkeeper());
