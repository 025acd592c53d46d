-- mutant: R02-guard-checks-new-row-owner
-- rules: R02
-- bug: the guard looks at the role the row will have (new.role) to decide exemption, so writing a staff role exempts itself.
create or replace function private.guard_users_owner_update()
returns trigger language plpgsql security definer set search_path = '' as $$
declare changed text[];
begin
  if auth.uid() is null then return new; end if;
  if old.id = auth.uid() and not coalesce(new.role in ('dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'admin'), false) then
    changed := private.changed_columns(to_jsonb(old), to_jsonb(new),
      array['display_name', 'avatar_url', 'phone', 'updated_at']);
    if cardinality(changed) > 0 then
      raise exception 'users: % may not be changed by the owner', array_to_string(changed, ', ') using errcode = 'P0001';
    end if;
  end if;
  return new;
end $$;
