-- mutant: R03-vs-remarks-not-append-only
-- rules: R03
-- bug: the append-only check compares only the lengths, so history can be rewritten as long as nothing is removed.
-- in 0200_vs.sql replace:
  if jsonb_typeof(new.remarks) is distinct from 'array' or jsonb_array_length(new.remarks) < old_len
     or (select coalesce(jsonb_agg(x.e order by x.n), '[]'::jsonb)
           from jsonb_array_elements(new.remarks) with ordinality x(e, n) where x.n <= old_len) <> old.remarks then
-- with:
  if jsonb_typeof(new.remarks) is distinct from 'array' or jsonb_array_length(new.remarks) < old_len then
-- end
