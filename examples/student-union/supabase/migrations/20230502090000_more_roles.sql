-- The union grew: treasurers, faculty advisors and a webmaster.
ALTER TABLE public.members DROP CONSTRAINT members_role_check;
ALTER TABLE public.members ADD CONSTRAINT members_role_check
  CHECK (role IN ('member', 'officer', 'treasurer', 'president', 'advisor', 'webmaster'));

CREATE OR REPLACE FUNCTION app.is_officer() RETURNS BOOLEAN
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
BEGIN
  RETURN coalesce(app.my_role() IN ('officer', 'treasurer', 'president', 'webmaster'), FALSE);
END $$;

CREATE OR REPLACE FUNCTION app.is_president() RETURNS BOOLEAN
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
BEGIN
  RETURN coalesce(app.my_role() IN ('president', 'webmaster'), FALSE);
END $$;

CREATE OR REPLACE FUNCTION app.is_shopkeeper() RETURNS BOOLEAN
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF app.my_role() IS NULL THEN
    RETURN FALSE;
  END IF;
  RETURN app.my_role() IN ('treasurer', 'president', 'webmaster') OR app.holds('shop');
END $$;
