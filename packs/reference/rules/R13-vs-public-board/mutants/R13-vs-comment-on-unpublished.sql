-- mutant: R13-vs-comment-on-unpublished
-- rules: R13, R08
-- bug: vs_post_public_comment checks the board only for the repeats-the-report test and appends to any ticket with that public_ref, so a comment lands on an unpublished or deleted ticket.
-- in 0200_vs.sql replace:
   where t.public_ref = p_ref and private.vs_on_board(t);
  if not found then raise exception 'comment: problem not found' using errcode = 'P0001'; end if;
-- with:
   where t.public_ref = p_ref;
  if not found then raise exception 'comment: problem not found' using errcode = 'P0001'; end if;
-- end
