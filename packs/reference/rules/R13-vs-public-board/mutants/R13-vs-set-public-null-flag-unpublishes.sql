-- mutant: R13-vs-set-public-null-flag-unpublishes
-- rules: R13
-- bug: vs_set_public does not require p_public, and "if p_public" takes the else branch for null, so a call without the flag unpublishes the ticket instead of being refused.
-- in 0200_vs.sql replace:
  if p_public is null then raise exception 'publish: p_public is required' using errcode = 'P0001'; end if;
-- with:
-- end
