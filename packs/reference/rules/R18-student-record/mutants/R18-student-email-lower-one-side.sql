-- mutant: R18-student-email-lower-one-side
-- rules: R18
-- bug: the student record is matched to the signed-in identity with lower() on the record's side only: a sign-in e-mail with capitals finds no record.
-- in 0420_students.sql replace:
    join auth.users a on lower(trim(s.email)) = lower(trim(a.email))
   where a.id = auth.uid()
-- with:
    join auth.users a on lower(trim(s.email)) = trim(a.email)
   where a.id = auth.uid()
-- end
