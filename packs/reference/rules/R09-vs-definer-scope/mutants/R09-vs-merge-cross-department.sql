-- mutant: R09-vs-merge-cross-department
-- rules: R09
-- bug: merge_vs_tickets forgot the cross-department check: an unrestricted handler merges an ENG ticket into a SCI one.
-- in 0200_vs.sql replace:
  if d.target_dept <> p.target_dept then raise exception 'merge: cross-department merge' using errcode = 'P0001'; end if;
-- with:
-- end
