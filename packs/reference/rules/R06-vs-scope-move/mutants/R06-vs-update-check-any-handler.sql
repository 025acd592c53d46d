-- mutant: R06-vs-update-check-any-handler
-- rules: R06
-- bug: WITH CHECK asks "is a VS handler" instead of "in the handler's scope": the department is lost on the new row.
-- in 0200_vs.sql replace:
  with check (deleted_at is null and (submitter_id = auth.uid() or public.vs_in_scope(target_dept)));
-- with:
  with check (deleted_at is null and (submitter_id = auth.uid() or public.current_user_is_vs_handler()));
-- end
