-- mutant: R12-vs-transfer-remark-carries-id
-- rules: R12
-- bug: vs_transfer_dept appends its p_remarks timeline unchecked (it writes past the table's guard): a ticket-visible entry naming another ticket reaches the submitter.
-- in 0200_vs.sql replace:
  if private.vs_remarks_leak_id(p_id, p_remarks) then
    raise exception 'transfer: a ticket-visible remark carries another ticket''s id' using errcode = 'P0001';
  end if;
-- with:
-- end
