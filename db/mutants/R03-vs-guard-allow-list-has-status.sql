-- mutant: R03-vs-guard-allow-list-has-status
-- rules: R03, R01
-- bug: the submitter guard's allow-list grew status and tags ("submitters may reopen and tag their own tickets").
create or replace function private.guard_vs_tickets_update()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  changed text[];
  old_len int;
  e jsonb;
begin
  if auth.uid() is null or coalesce(current_setting('app.vs_trusted', true), '') = 'on' then
    return new;
  end if;
  -- Rule 7: soft delete runs through soft_delete_vs_ticket, never a PATCH of deleted_at.
  if new.deleted_at is distinct from old.deleted_at then
    raise exception 'vs_tickets: deleted_at is set only by soft_delete_vs_ticket' using errcode = 'P0001';
  end if;
  -- Rule 1 / 3: a submitter who is not a handler in scope changes only the allow-list.
  if old.submitter_id = auth.uid() and not public.vs_in_scope(old.target_dept) then
    changed := private.changed_columns(to_jsonb(old), to_jsonb(new),
      array['remarks', 'status', 'tags', 'updated_at', 'is_duplicate', 'public_ref']);
    if cardinality(changed) > 0 then
      raise exception 'vs_tickets: % may not be changed by the submitter', array_to_string(changed, ', ')
        using errcode = 'P0001', hint = 'privileged column';
    end if;
  end if;
  -- Rule 3: remarks are append-only.
  old_len := jsonb_array_length(old.remarks);
  if jsonb_typeof(new.remarks) is distinct from 'array' or jsonb_array_length(new.remarks) < old_len
     or (select coalesce(jsonb_agg(x.e order by x.n), '[]'::jsonb)
           from jsonb_array_elements(new.remarks) with ordinality x(e, n) where x.n <= old_len) <> old.remarks then
    raise exception 'vs_tickets: remarks are append-only' using errcode = 'P0001';
  end if;
  -- Rule 3: a submitter's entry has vis 'ticket', is attributed to the submitter label, is not internal.
  if old.submitter_id = auth.uid() and not public.vs_in_scope(old.target_dept) then
    for e in select x.e from jsonb_array_elements(new.remarks) with ordinality x(e, n) where x.n > old_len loop
      if jsonb_typeof(e) <> 'object' or (e -> 'vis') is distinct from '"ticket"'::jsonb
         or (e -> 'by') is distinct from to_jsonb(old.submitter_label)
         or (e ? 'internal' and (e -> 'internal') is distinct from 'false'::jsonb) then
        raise exception 'vs_tickets: a submitter''s remark must be a ticket remark by the submitter label'
          using errcode = 'P0001';
      end if;
    end loop;
  end if;
  return new;
end
$$;
