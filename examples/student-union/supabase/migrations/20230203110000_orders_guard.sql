-- A customer changes only the payment and delivery details of their own order.
CREATE FUNCTION app.guard_order_update() RETURNS TRIGGER
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  editable TEXT[] := ARRAY['status', 'slips', 'ship_to_name', 'ship_to_phone', 'ship_to_address', 'comment', 'updated_at'];
BEGIN
  IF auth.uid() IS NULL OR app.is_shopkeeper() OR OLD.customer_id IS DISTINCT FROM auth.uid() THEN
    RETURN NEW;
  END IF;
  IF (to_jsonb(NEW) - editable) IS DISTINCT FROM (to_jsonb(OLD) - editable) THEN
    RAISE EXCEPTION 'not authorized: customers may change only payment and delivery details' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER guard_order_update BEFORE UPDATE ON public.orders
  FOR EACH ROW EXECUTE FUNCTION app.guard_order_update();
