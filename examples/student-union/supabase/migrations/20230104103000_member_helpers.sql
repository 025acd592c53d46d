-- What the policies ask about the caller. Definer, so they read members past its own policies.
CREATE FUNCTION app.my_role() RETURNS TEXT
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
DECLARE r TEXT;
BEGIN
  SELECT m.role INTO r FROM public.members m WHERE m.id = auth.uid();
  RETURN r;
END $$;

CREATE FUNCTION app.is_officer() RETURNS BOOLEAN
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
BEGIN
  RETURN coalesce(app.my_role() IN ('officer', 'president'), FALSE);
END $$;

CREATE FUNCTION app.is_president() RETURNS BOOLEAN
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
BEGIN
  RETURN coalesce(app.my_role() = 'president', FALSE);
END $$;

CREATE FUNCTION app.holds(p_perm TEXT) RETURNS BOOLEAN
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
DECLARE found BOOLEAN;
BEGIN
  SELECT p_perm = ANY (m.perms) OR p_perm = ANY (m.delegated_perms) INTO found FROM public.members m WHERE m.id = auth.uid();
  RETURN coalesce(found, FALSE);
END $$;
