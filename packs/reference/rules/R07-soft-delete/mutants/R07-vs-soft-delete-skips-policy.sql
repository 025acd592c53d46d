-- mutant: R07-vs-soft-delete-skips-policy
-- rules: R07
-- bug: soft_delete_vs_ticket checks "is staff" but not the DELETE policy's predicate: any staff member deletes any department's ticket.
-- in 0200_vs.sql replace:
   where t.id = p_id and t.deleted_at is null and public.vs_can_delete(t.target_dept);
-- with:
   where t.id = p_id and t.deleted_at is null;
-- end
