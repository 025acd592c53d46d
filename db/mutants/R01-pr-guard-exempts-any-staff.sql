-- mutant: R01-pr-guard-exempts-any-staff
-- rules: R01
-- bug: the PR guard exempts every staff role (current_user_is_staff) instead of PR handlers, so a vs_staff or vp_admin submitter edits status and handler_note of their own ticket.
create or replace function private.guard_pr_tickets_owner_update()
returns trigger language plpgsql security definer set search_path = '' as $$
declare changed text[];
begin
  if auth.uid() is null then return new; end if;
  if old.submitter_id = auth.uid() and not public.current_user_is_staff() then
    changed := private.changed_columns(to_jsonb(old), to_jsonb(new), array['brief', 'file_url', 'updated_at']);
    if cardinality(changed) > 0 then
      raise exception 'pr_tickets: % may not be changed by the submitter', array_to_string(changed, ', ') using errcode = 'P0001';
    end if;
  end if;
  return new;
end $$;
