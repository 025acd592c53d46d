CREATE FUNCTION app.is_shopkeeper() RETURNS BOOLEAN
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF app.my_role() IS NULL THEN
    RETURN FALSE;
  END IF;
  RETURN app.my_role() IN ('officer', 'president') OR app.holds('shop');
END $$;

ALTER TABLE public.orders ENABLE ROW LEVEL SECURITY;

CREATE POLICY "customers see their orders" ON public.orders FOR SELECT TO authenticated
  USING (customer_id = auth.uid() OR app.is_shopkeeper());

CREATE POLICY "customers place orders" ON public.orders FOR INSERT TO authenticated
  WITH CHECK (
    (customer_id = auth.uid() AND status = 'awaiting' AND internal_note IS NULL AND history = '[]'::JSONB)
    OR app.is_shopkeeper()
  );

CREATE POLICY "customers edit open orders" ON public.orders FOR UPDATE TO authenticated
  USING ((customer_id = auth.uid() AND status IN ('awaiting', 'checking', 'slip_rejected')) OR app.is_shopkeeper())
  WITH CHECK (customer_id = auth.uid() OR app.is_shopkeeper());
