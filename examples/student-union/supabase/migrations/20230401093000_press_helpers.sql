CREATE FUNCTION app.is_press_office() RETURNS BOOLEAN
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF app.my_role() IS NULL THEN
    RETURN FALSE;
  END IF;
  RETURN app.my_role() IN ('officer', 'president') OR app.holds('press');
END $$;
