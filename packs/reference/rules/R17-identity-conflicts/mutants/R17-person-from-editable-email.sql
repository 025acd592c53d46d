-- mutant: R17-person-from-editable-email
-- rules: R17
-- bug: my_person_id() resolves the person from users.email, a column a staff owner may edit, so an edited e-mail becomes someone else's identity.
-- in 0420_students.sql replace:
  select s.id
    from public.student_records s
    join auth.users a on lower(trim(s.email)) = lower(trim(a.email))
   where a.id = auth.uid()
-- with:
  select s.id from public.student_records s join public.users u on lower(trim(s.email)) = lower(trim(u.email)) where u.id = auth.uid()
-- end
