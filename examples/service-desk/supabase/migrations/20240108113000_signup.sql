-- Every new auth user gets a profile with the default role.
create function internal.create_profile() returns trigger
language plpgsql security definer set search_path = public as $$
begin
  insert into public.users (id, email, full_name)
  values (new.id, coalesce(new.email, new.id::text || '@invalid'), split_part(coalesce(new.email, ''), '@', 1));
  return new;
end $$;

create trigger create_profile_after_signup after insert on auth.users
  for each row execute function internal.create_profile();
