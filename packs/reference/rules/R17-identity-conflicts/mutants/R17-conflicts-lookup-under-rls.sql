-- mutant: R17-conflicts-lookup-under-rls
-- rules: R17
-- bug: the policy finds the caller's person by reading student_records directly, so it depends on student_records' admin-only row rules and the person never sees their own conflict.
-- in 0420_students.sql replace:
  using (public.current_user_is_admin() or person_id = public.my_person_id());
-- with:
  using (public.current_user_is_admin()
         or person_id in (select s.id from public.student_records s where lower(trim(s.email)) = lower(trim(auth.jwt() ->> 'email'))));
-- end
