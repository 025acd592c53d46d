-- Where a request came in. Old rows were all web; new ones must say.
ALTER TABLE public.press_requests ADD COLUMN channel TEXT NOT NULL DEFAULT 'web' CHECK (channel IN ('web', 'counter', 'mail'));
ALTER TABLE public.press_requests ALTER COLUMN channel DROP DEFAULT;
