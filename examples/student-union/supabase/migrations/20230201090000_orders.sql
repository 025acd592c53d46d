CREATE TABLE public.orders (
  id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id UUID NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
  status TEXT NOT NULL DEFAULT 'awaiting'
    CHECK (status IN ('awaiting', 'checking', 'slip_rejected', 'paid', 'shipped', 'done', 'void')),
  subtotal INTEGER NOT NULL DEFAULT 0 CHECK (subtotal >= 0),
  fee INTEGER NOT NULL DEFAULT 0 CHECK (fee >= 0),
  total INTEGER NOT NULL DEFAULT 0 CHECK (total >= 0),
  internal_note TEXT,
  history JSONB NOT NULL DEFAULT '[]',
  slips TEXT[] NOT NULL DEFAULT '{}',
  ship_to_name TEXT,
  ship_to_phone TEXT,
  ship_to_address TEXT,
  comment TEXT,
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TRIGGER touch_orders BEFORE UPDATE ON public.orders FOR EACH ROW EXECUTE FUNCTION app.touch();
