INSERT INTO public.products (sku, title, price) VALUES ('TOTE', 'Tote bag', 1200), ('PIN', 'Enamel pin', 400);
