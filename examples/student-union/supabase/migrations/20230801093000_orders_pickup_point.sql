ALTER TABLE public.orders ADD COLUMN pickup_point TEXT NOT NULL DEFAULT 'north' CHECK (pickup_point IN ('north', 'south'));
ALTER TABLE public.orders ALTER COLUMN pickup_point DROP DEFAULT;
