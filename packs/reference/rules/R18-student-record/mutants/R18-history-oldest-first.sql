-- mutant: R18-history-oldest-first
-- rules: R18
-- bug: the limit is applied before ordering newest first, so the student gets the 10 oldest outcomes.
-- in 0420_students.sql replace:
               order by c.created_at desc, c.id desc limit 10) q), '[]'::jsonb)
-- with:
               order by c.created_at, c.id limit 10) q), '[]'::jsonb)
-- end
