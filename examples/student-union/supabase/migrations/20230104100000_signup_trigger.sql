CREATE FUNCTION app.handle_new_member() RETURNS TRIGGER
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  INSERT INTO public.members (id, email, name) VALUES (NEW.id, coalesce(NEW.email, ''), split_part(coalesce(NEW.email, ''), '@', 1));
  RETURN NEW;
END $$;

CREATE TRIGGER on_auth_user_created AFTER INSERT ON auth.users
  FOR EACH ROW EXECUTE FUNCTION app.handle_new_member();
