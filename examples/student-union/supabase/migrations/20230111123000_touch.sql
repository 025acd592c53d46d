CREATE FUNCTION app.touch() RETURNS TRIGGER
LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END $$;

CREATE TRIGGER touch_members BEFORE UPDATE ON public.members
  FOR EACH ROW EXECUTE FUNCTION app.touch();
