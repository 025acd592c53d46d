-- mutant: R15-new-function-default-privileges
-- rules: R15
-- bug: a new helper (student id by e-mail) was added later with no revoke at all; default privileges grant EXECUTE to anon and authenticated.
create function public.effective_team_student_id_for_email(p_email text) returns text
language sql stable security definer set search_path = ''
as $$ select min(m.student_id) from public.team_members m where lower(trim(m.email)) = lower(trim(p_email)) $$;
