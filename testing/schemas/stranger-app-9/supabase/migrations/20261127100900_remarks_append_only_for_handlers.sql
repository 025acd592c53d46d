-- Found by policyfuzz (R01, R03, R06): the guard let a handler through before its append-only
-- check, so a handler could erase or rewrite a ticket's remarks ("remarks are append-only" holds
-- for every writer, not only submitters). The check now comes before a handler is let through.
create or replace function private.guard_vs_ticket_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_old_len integer := jsonb_array_length(old.remarks);
  v_new_len integer := jsonb_array_length(new.remarks);
  v_entry jsonb;
begin
  if (select auth.uid()) is null then
    return new;
  end if;

  if new.deleted_at is distinct from old.deleted_at
     and current_user in ('anon', 'authenticated') then
    raise exception 'tickets are deleted through soft_delete_vs_ticket'
      using errcode = '42501';
  end if;

  if v_new_len < v_old_len then
    raise exception 'remarks are append-only' using errcode = '42501';
  end if;
  for i in 0 .. v_old_len - 1 loop
    if (new.remarks -> i) is distinct from (old.remarks -> i) then
      raise exception 'remarks are append-only' using errcode = '42501';
    end if;
  end loop;

  if private.can_handle_vs(old.target_dept) then
    return new;
  end if;

  if (to_jsonb(new) - array['body', 'remarks', 'updated_at', 'is_duplicate'])
     is distinct from (to_jsonb(old) - array['body', 'remarks', 'updated_at', 'is_duplicate']) then
    raise exception 'submitters may only edit the report text and add remarks'
      using errcode = '42501';
  end if;

  for i in v_old_len .. v_new_len - 1 loop
    v_entry := new.remarks -> i;
    if jsonb_typeof(v_entry) <> 'object'
       or (v_entry ->> 'vis') is distinct from 'ticket'
       or (v_entry ->> 'by') is distinct from old.submitter_label
       or coalesce((v_entry ->> 'internal')::boolean, false) then
      raise exception 'a remark you add must be visible on the ticket and signed with your label'
        using errcode = '42501';
    end if;
  end loop;
  return new;
end;
$$;
