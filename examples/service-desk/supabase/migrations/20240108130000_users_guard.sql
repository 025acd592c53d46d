-- People must not hand themselves grants or another e-mail.
create function internal.guard_users_update() returns trigger
language plpgsql security definer set search_path = public as $$
begin
  if auth.uid() is null or internal.caller_is_agent() or old.id is distinct from auth.uid() then
    return new;
  end if;
  if new.grants is distinct from old.grants
     or new.delegated_grants is distinct from old.delegated_grants
     or new.email is distinct from old.email then
    raise exception 'forbidden: you cannot change that' using errcode = '42501';
  end if;
  return new;
end $$;

create trigger guard_users_update before update on public.users
  for each row execute function internal.guard_users_update();
