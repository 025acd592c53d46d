-- mutant: R02-guard-trigger-dropped
-- rules: R02, R01
-- bug: a later migration recreated the table's triggers and forgot the owner guard.
drop trigger users_10_owner_guard on public.users;
