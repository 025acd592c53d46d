-- mutant: R18-student-records-readable-with-mfa
-- rules: R18
-- bug: an aal2-only policy: any user signed in with a second factor (aal2) reads every student record, as if MFA made them an admin.
-- in 0420_students.sql replace:
create policy student_records_admin_read on public.student_records for select to authenticated
  using (public.current_user_is_admin());
-- with:
create policy student_records_admin_read on public.student_records for select to authenticated
  using (public.current_user_is_admin() or (auth.jwt() ->> 'aal') = 'aal2');
-- end
