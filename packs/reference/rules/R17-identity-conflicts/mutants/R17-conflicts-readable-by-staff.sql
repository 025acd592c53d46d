-- mutant: R17-conflicts-readable-by-staff
-- rules: R17
-- bug: the admin check was written with the staff helper, so every handler reads everyone's identity conflicts.
-- in 0420_students.sql replace:
  using (public.current_user_is_admin() or person_id = public.my_person_id());
-- with:
  using (public.current_user_is_staff() or person_id = public.my_person_id());
-- end
