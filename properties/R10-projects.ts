/**
 * R10 — projects, project_documents and project_files are readable by anon and signed-in
 * callers; project_settings never by anon (and only by staff); sign requests only by their actor
 * or the addressed professor; a professor's signed-file upload is an INSERT the row rules allow
 * only on a project with a pending request addressed to them.
 * Cases: people of mixed roles (many professors and actors), projects with documents, files,
 * sign requests and settings; one or two steps: a read of any project table, or a write (mostly
 * a file upload), then a read.
 */
import fc from 'fast-check';
import type { ModelSettings } from '../model/settings.ts';
import { projectRead, projectRows, projectWorld, projectWrite } from '../harness/generators/project.ts';
import { callerFrom, peopleRows, peopleWithRoles } from '../harness/generators/student.ts';
import type { DataCase, DataStep } from '../harness/runner/data-case.ts';
import type { DataProperty } from '../harness/runner/data-property.ts';

function cases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  const roles = [null, 'user', ...settings.projects.professorRoles, ...settings.projects.professorRoles, ...settings.projects.actorRoles.slice(0, 3), 'vs_staff'];
  return peopleWithRoles(settings, roles, 1, 4).chain((list) =>
    projectWorld(list).chain((w) =>
      callerFrom(list).chain((caller) => {
        const read = projectRead(w).map((request): DataStep => ({ caller, request }));
        const write = projectWrite(w, list, caller).map((request): DataStep => ({ caller, request }));
        const steps = fc.oneof({ weight: 2, arbitrary: read.map((s) => [s]) }, { weight: 3, arbitrary: fc.tuple(write, read).map(([a, b]) => [a, b]) });
        return steps.map((s): DataCase => ({ world: { ...peopleRows(list), ...projectRows(w) }, steps: s }));
      }),
    ),
  );
}

export const R10: DataProperty = {
  id: 'R10',
  rule: 10,
  title: 'projects: public reads, staff-only settings, professor sign-request scoping and signed uploads',
  tables: ['projects', 'project_documents', 'project_files', 'project_sign_requests', 'project_settings'],
  functions: ['current_user_is_project_actor'],
  cases,
};
