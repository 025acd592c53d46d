CREATE TABLE public.products (
  id SERIAL PRIMARY KEY,
  sku TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  price INTEGER NOT NULL CHECK (price >= 0)
);
ALTER TABLE public.products ENABLE ROW LEVEL SECURITY;
CREATE POLICY "products are public" ON public.products FOR SELECT USING (TRUE);
INSERT INTO public.products (sku, title, price) VALUES ('HOODIE-M', 'Union hoodie (M)', 3500), ('MUG', 'Union mug', 900);
