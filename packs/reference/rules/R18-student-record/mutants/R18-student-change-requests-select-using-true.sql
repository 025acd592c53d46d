-- mutant: R18-student-change-requests-select-using-true
-- rules: R18
-- bug: student_change_requests' SELECT policy is using (true): every signed-in user reads every student's requests and the admins' verdicts.
-- in 0420_students.sql replace:
create policy student_change_requests_admin_read on public.student_change_requests for select to authenticated
  using (public.current_user_is_admin());
-- with:
create policy student_change_requests_admin_read on public.student_change_requests for select to authenticated
  using (true);
-- end
