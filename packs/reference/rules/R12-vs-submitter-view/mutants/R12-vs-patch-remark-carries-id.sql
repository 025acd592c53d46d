-- mutant: R12-vs-patch-remark-carries-id
-- rules: R12
-- bug: the table's guard checks who may append remarks but not what a handler appends: a PATCH adds a ticket-visible remark naming another ticket, and the submitter reads that id.
-- in 0200_vs.sql replace:
  if private.vs_remarks_leak_id(old.id, (select coalesce(jsonb_agg(x.e order by x.n), '[]'::jsonb)
       from jsonb_array_elements(new.remarks) with ordinality x(e, n) where x.n > old_len)) then
    raise exception 'vs_tickets: a ticket-visible remark carries another ticket''s id' using errcode = 'P0001';
  end if;
-- with:
-- end
