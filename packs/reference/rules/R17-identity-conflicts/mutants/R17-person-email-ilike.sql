-- mutant: R17-person-email-ilike
-- rules: R17, R18
-- bug: my_person_id() links the caller to a record by `ilike` on the e-mails, so an auth e-mail holding `_` (a wildcard) is also the person of a stranger's record that differs there.
-- in 0420_students.sql replace:
    join auth.users a on lower(trim(s.email)) = lower(trim(a.email))
-- with:
    join auth.users a on trim(s.email) ilike trim(a.email)
-- end
