-- mutant: R15-private-helper-public-execute
-- rules: R15
-- bug: a private helper was created without "revoke … from public", so PUBLIC keeps Postgres' default EXECUTE.
create function private.person_email(p_person uuid) returns text
language sql stable security definer set search_path = ''
as $$ select s.email from public.student_records s where s.id = p_person $$;
