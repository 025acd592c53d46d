-- mutant: R10-professor-any-professor-addressed
-- rules: R10
-- bug: the upload check asks for a pending sign request on the project but not one addressed to the caller, so any professor uploads a signed file where a colleague was asked.
-- in 0400_projects.sql replace:
        where r.project_id = p_project_id and r.professor_id = auth.uid() and r.status = 'pending'
-- with:
        where r.project_id = p_project_id and r.status = 'pending'
-- end
