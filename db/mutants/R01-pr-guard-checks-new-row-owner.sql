-- mutant: R01-pr-guard-checks-new-row-owner
-- rules: R01
-- bug: the PR guard asks whether the new row belongs to the caller (new.submitter_id), so a submitter who hands the ticket to someone else skips the guard.
create or replace function private.guard_pr_tickets_owner_update()
returns trigger language plpgsql security definer set search_path = '' as $$
declare changed text[];
begin
  if auth.uid() is null then return new; end if;
  if new.submitter_id = auth.uid() and not public.current_user_is_pr_handler() then
    changed := private.changed_columns(to_jsonb(old), to_jsonb(new), array['brief', 'file_url', 'updated_at']);
    if cardinality(changed) > 0 then
      raise exception 'pr_tickets: % may not be changed by the submitter', array_to_string(changed, ', ') using errcode = 'P0001';
    end if;
  end if;
  return new;
end $$;
