-- mutant: R14-vs-transfer-ilike
-- rules: R14
-- bug: vs_transfer_dept finds the ticket with ilike, so a wildcard id moves every ticket it matches.
-- in 0200_vs.sql replace:
   where t.id = p_id and t.deleted_at is null and public.vs_in_scope(t.target_dept);
-- with:
   where t.id ilike p_id and t.deleted_at is null and public.vs_in_scope(t.target_dept);
-- end
