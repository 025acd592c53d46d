ALTER TABLE public.members ADD COLUMN picture TEXT;
