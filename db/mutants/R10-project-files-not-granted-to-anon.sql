-- mutant: R10-project-files-not-granted-to-anon
-- rules: R10, R16
-- bug: the read policy names anon but the table grant does not, so anon's public read of project files is denied.
revoke select on table public.project_files from anon;
