-- mutant: R02-guard-allow-list-has-role
-- rules: R02, R01
-- bug: the owner guard's allow-list was widened to include role, so any owner can promote themselves.
-- in 0100_users.sql replace:
      array['display_name', 'avatar_url', 'phone', 'updated_at'], 'users', 'owner');
-- with:
      array['display_name', 'avatar_url', 'phone', 'updated_at', 'role'], 'users', 'owner');
-- end
