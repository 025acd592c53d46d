-- mutant: R16-conflicts-grant-missing
-- rules: R16, R17
-- bug: identity_conflicts was recreated by a migration that revoked the defaults and forgot the grant, so every caller is denied, the person included.
-- in 0420_students.sql replace:
grant select on table public.identity_conflicts to authenticated;
-- with:
-- end
