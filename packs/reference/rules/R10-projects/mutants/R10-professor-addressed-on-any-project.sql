-- mutant: R10-professor-addressed-on-any-project
-- rules: R10
-- bug: the addressed-professor check finds a pending request addressing the caller on any project, so a professor addressed once may upload signed files to every project.
-- in 0400_projects.sql replace:
        where r.project_id = p_project_id and r.professor_id = auth.uid() and r.status = 'pending'
-- with:
        where r.professor_id = auth.uid() and r.status = 'pending'
-- end
