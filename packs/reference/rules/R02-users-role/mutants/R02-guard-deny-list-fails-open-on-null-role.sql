-- mutant: R02-guard-deny-list-fails-open-on-null-role
-- rules: R02, R08
-- bug: the exemption is written as "role is not plain user", so a null role (no role yet) fails open.
-- in 0100_users.sql replace:
  if old.id = auth.uid() and not public.current_user_is_staff() then
-- with:
  if old.id = auth.uid() and public.current_user_role() = 'user' then
-- end
