-- mutant: R18-student-records-select-using-true
-- rules: R18
-- bug: student_records' SELECT policy is using (true): every signed-in user reads every student's record.
-- in 0420_students.sql replace:
create policy student_records_admin_read on public.student_records for select to authenticated
  using (public.current_user_is_admin());
-- with:
create policy student_records_admin_read on public.student_records for select to authenticated
  using (true);
-- end
