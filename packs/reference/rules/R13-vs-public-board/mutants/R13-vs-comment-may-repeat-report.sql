-- mutant: R13-vs-comment-may-repeat-report
-- rules: R13
-- bug: the public comment thread takes any non-blank body, so a comment quoting the student's report publishes it verbatim.
-- in 0200_vs.sql replace:
  if exists (select 1 from public.vs_tickets t where t.public_ref = p_ref and private.vs_on_board(t) and private.vs_repeats_report(p_body, t.report)) then
    raise exception 'comment: the comment repeats the report' using errcode = 'P0001';
  end if;
-- with:
-- end
