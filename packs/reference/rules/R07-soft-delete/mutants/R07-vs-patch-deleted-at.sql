-- mutant: R07-vs-patch-deleted-at
-- rules: R07
-- bug: the guard no longer stops a PATCH of deleted_at, so handlers soft-delete around the function and its checks.
-- in 0200_vs.sql replace:
  if new.deleted_at is distinct from old.deleted_at then
    raise exception 'vs_tickets: deleted_at is set only by soft_delete_vs_ticket' using errcode = 'P0001';
  end if;
-- with:
-- end
-- in 0200_vs.sql replace:
  with check (deleted_at is null and (submitter_id = auth.uid() or public.vs_in_scope(target_dept)));
-- with:
  with check (submitter_id = auth.uid() or public.vs_in_scope(target_dept));
-- end
