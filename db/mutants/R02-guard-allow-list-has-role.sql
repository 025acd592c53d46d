-- mutant: R02-guard-allow-list-has-role
-- rules: R02, R01
-- bug: the owner guard's allow-list was widened to include role, so any owner can promote themselves.
create or replace function private.guard_users_owner_update()
returns trigger language plpgsql security definer set search_path = '' as $$
declare changed text[];
begin
  if auth.uid() is null then return new; end if;
  if old.id = auth.uid() and not public.current_user_is_staff() then
    changed := private.changed_columns(to_jsonb(old), to_jsonb(new),
      array['display_name', 'avatar_url', 'phone', 'updated_at', 'role']);
    if cardinality(changed) > 0 then
      raise exception 'users: % may not be changed by the owner', array_to_string(changed, ', ') using errcode = 'P0001';
    end if;
  end if;
  return new;
end $$;
