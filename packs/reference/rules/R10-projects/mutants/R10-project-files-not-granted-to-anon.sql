-- mutant: R10-project-files-not-granted-to-anon
-- rules: R10, R16
-- bug: the read policy names anon but the table grant does not, so anon's public read of project files is denied.
-- in 0400_projects.sql replace:
grant select on table public.projects, public.project_documents, public.project_files to anon, authenticated;
-- with:
grant select on table public.projects, public.project_documents to anon, authenticated;
grant select on table public.project_files to authenticated;
-- end
