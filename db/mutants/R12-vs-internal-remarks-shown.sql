-- mutant: R12-vs-internal-remarks-shown
-- rules: R12
-- bug: the submitter's remark filter keeps entries by vis only and ignores the internal flag, so id-bearing internal remarks leak.
create or replace function private.vs_submitter_remarks(p_remarks jsonb) returns jsonb
language sql immutable set search_path = ''
as $$
  select coalesce(jsonb_agg(x.e order by x.n), '[]'::jsonb)
  from jsonb_array_elements(p_remarks) with ordinality x(e, n)
  where jsonb_typeof(x.e) = 'object' and (x.e -> 'vis') = '"ticket"'::jsonb
$$;
