-- mutant: R18-history-eleven-newest
-- rules: R18
-- bug: off by one: get_my_student_record returns the newest 11 change requests, not 10.
-- in 0420_students.sql replace:
               order by c.created_at desc, c.id desc limit 10) q), '[]'::jsonb)
-- with:
               order by c.created_at desc, c.id desc limit 11) q), '[]'::jsonb)
-- end
