-- mutant: R02-guard-deny-list-fails-open-on-null-role
-- rules: R02, R08
-- bug: the exemption is written as "role is not plain user", so a null role (no role yet) fails open.
create or replace function private.guard_users_owner_update()
returns trigger language plpgsql security definer set search_path = '' as $$
declare changed text[];
begin
  if auth.uid() is null then return new; end if;
  if old.id = auth.uid() and public.current_user_role() = 'user' then
    changed := private.changed_columns(to_jsonb(old), to_jsonb(new),
      array['display_name', 'avatar_url', 'phone', 'updated_at']);
    if cardinality(changed) > 0 then
      raise exception 'users: % may not be changed by the owner', array_to_string(changed, ', ') using errcode = 'P0001';
    end if;
  end if;
  return new;
end $$;
