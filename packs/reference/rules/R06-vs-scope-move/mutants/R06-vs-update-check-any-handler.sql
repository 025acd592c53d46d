-- mutant: R06-vs-update-check-any-handler
-- rules: R06
-- bug: WITH CHECK asks "is a VS handler" instead of "in the handler's scope": the department is lost on the new row.
-- unreachable: every PATCH Supabase accepts has a filter (pg-safeupdate), and a filtered UPDATE checks the new row against the SELECT policy too, which is the same scope; only the UPDATE policy's WITH CHECK is broken here, so no REST request can move a ticket this way (vs_transfer_dept runs as its owner, outside row security).
-- in 0200_vs.sql replace:
  with check (deleted_at is null and (submitter_id = auth.uid() or public.vs_in_scope(target_dept)));
-- with:
  with check (deleted_at is null and (submitter_id = auth.uid() or public.current_user_is_vs_handler()));
-- end
