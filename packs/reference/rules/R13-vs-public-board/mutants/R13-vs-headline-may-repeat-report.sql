-- mutant: R13-vs-headline-may-repeat-report
-- rules: R13
-- bug: publishing takes any non-blank headline, so staff who paste the student's report as the headline publish it verbatim.
-- in 0200_vs.sql replace:
    if private.vs_repeats_report(p_title, t.report) then
      raise exception 'publish: the headline repeats the report' using errcode = 'P0001';
    end if;
-- with:
-- end
