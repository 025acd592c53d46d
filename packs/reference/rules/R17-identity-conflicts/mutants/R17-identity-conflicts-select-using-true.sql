-- mutant: R17-identity-conflicts-select-using-true
-- rules: R17
-- bug: identity_conflicts' SELECT policy is using (true): every signed-in user reads everyone's identity conflicts.
-- in 0420_students.sql replace:
create policy identity_conflicts_read on public.identity_conflicts for select to authenticated
  using (public.current_user_is_admin() or person_id = public.my_person_id());
-- with:
create policy identity_conflicts_read on public.identity_conflicts for select to authenticated
  using (true);
-- end
