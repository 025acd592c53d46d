-- mutant: R06-vs-guard-scope-of-new-dept
-- rules: R06
-- bug: the submitter guard asks whether the new department is in the caller's scope: a permission-holding submitter moves their own ticket into their department and changes its status and tags in the same PATCH.
-- in 0200_vs.sql replace:
  if old.submitter_id = auth.uid() and not public.vs_in_scope(old.target_dept) then
    perform private.reject_outside_allow_list(to_jsonb(old), to_jsonb(new),
-- with:
  if old.submitter_id = auth.uid() and not public.vs_in_scope(new.target_dept) then
    perform private.reject_outside_allow_list(to_jsonb(old), to_jsonb(new),
-- end
