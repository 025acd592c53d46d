-- mutant: R08-vs-transfer-remarks-not-array
-- rules: R08
-- bug: vs_transfer_dept does not check that p_remarks is an array, so a timeline object or string reaches the id check, which fails with a jsonb error (22023) instead of the function's refusal.
-- in 0200_vs.sql replace:
  if p_remarks is not null and jsonb_typeof(p_remarks) <> 'array' then
    raise exception 'transfer: p_remarks must be an array' using errcode = 'P0001';
  end if;
-- with:
-- end
