-- mutant: R02-guard-checks-new-row-owner
-- rules: R02
-- bug: the guard looks at the role the row will have (new.role) to decide exemption, so writing a staff role exempts itself.
-- in 0100_users.sql replace:
  if old.id = auth.uid() and not public.current_user_is_staff() then
-- with:
  if old.id = auth.uid() and not coalesce(new.role in ('dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'admin'), false) then
-- end
