-- Members may not hand themselves permissions.
CREATE FUNCTION app.guard_member_update() RETURNS TRIGGER
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF auth.uid() IS NULL OR app.is_officer() THEN
    RETURN NEW;
  END IF;
  IF NEW.perms IS DISTINCT FROM OLD.perms
     OR NEW.delegated_perms IS DISTINCT FROM OLD.delegated_perms
     OR NEW.email IS DISTINCT FROM OLD.email THEN
    RAISE EXCEPTION 'not authorized: members may not change their permissions or email' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER guard_member_update BEFORE UPDATE ON public.members
  FOR EACH ROW EXECUTE FUNCTION app.guard_member_update();
