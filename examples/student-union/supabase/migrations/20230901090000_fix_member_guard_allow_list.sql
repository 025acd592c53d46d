-- Security fix: the guard listed what members may NOT change and forgot role, so any member
-- could make themselves president. Now it lists what they MAY change.
CREATE OR REPLACE FUNCTION app.guard_member_update() RETURNS TRIGGER
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
  editable TEXT[] := ARRAY['nickname', 'picture', 'mobile', 'updated_at'];
BEGIN
  IF auth.uid() IS NULL OR app.is_officer() OR OLD.id IS DISTINCT FROM auth.uid() THEN
    RETURN NEW;
  END IF;
  IF (to_jsonb(NEW) - editable) IS DISTINCT FROM (to_jsonb(OLD) - editable) THEN
    RAISE EXCEPTION 'not authorized: members may change only their nickname, picture and mobile' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END $$;
