ALTER TABLE public.app_settings ADD COLUMN contact_email TEXT NOT NULL DEFAULT 'union@example.edu';
UPDATE public.app_settings SET term = '2023-autumn';
