-- mutant: R08-vs-transfer-null-destination
-- rules: R08
-- bug: vs_transfer_dept only rejects a blank destination; a null one slips through to the UPDATE.
-- in 0200_vs.sql replace:
  if p_dept is null or btrim(p_dept) = '' then
-- with:
  if btrim(p_dept) = '' then
-- end
