ALTER TABLE public.members RENAME COLUMN name TO nickname;

CREATE OR REPLACE FUNCTION app.handle_new_member() RETURNS TRIGGER
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  INSERT INTO public.members (id, email, nickname) VALUES (NEW.id, coalesce(NEW.email, ''), split_part(coalesce(NEW.email, ''), '@', 1));
  RETURN NEW;
END $$;
