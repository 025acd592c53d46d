-- mutant: R18-change-requests-insert-by-app-metadata-claim
-- rules: R18
-- bug: the change-request insert policy also trusts the token's app_metadata.role, so a student whose token says admin files verdicts on records.
-- in 0420_students.sql replace:
create policy student_change_requests_admin_insert on public.student_change_requests for insert to authenticated
  with check (public.current_user_is_admin());
-- with:
create policy student_change_requests_admin_insert on public.student_change_requests for insert to authenticated
  with check (public.current_user_is_admin() or (auth.jwt() -> 'app_metadata' ->> 'role') = 'admin');
-- end
