-- mutant: R18-history-not-capped
-- rules: R18
-- bug: the history list lost its limit, returning every change request instead of the newest 10.
-- in 0420_students.sql replace:
               order by c.created_at desc, c.id desc limit 10) q), '[]'::jsonb)
-- with:
               order by c.created_at desc, c.id desc) q), '[]'::jsonb)
-- end
