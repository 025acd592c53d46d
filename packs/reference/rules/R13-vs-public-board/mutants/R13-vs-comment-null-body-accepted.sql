-- mutant: R13-vs-comment-null-body-accepted
-- rules: R13
-- bug: the body check is only btrim(p_body) = '', which is null (not true) for a missing body, so a comment with no body is posted.
-- in 0200_vs.sql replace:
  if p_body is null or btrim(p_body) = '' then
-- with:
  if btrim(p_body) = '' then
-- end
