/**
 * R10 — projects, project_documents and project_files are readable by anon and signed-in
 * callers; project_settings never by anon (and only by staff); sign requests only by their actor
 * or the addressed professor; a professor's signed-file upload is an INSERT the row rules allow
 * only on a project with a pending request addressed to them.
 * Cases: people of mixed roles (many professors and actors; the caller often one of them), projects with documents, files,
 * sign requests and settings (often a pending one addressing the caller); one or two steps: a
 * read of any project table (often projects embedding a child table, sign requests most, or a
 * child embedding its project), or a write (mostly a file upload, in the caller's name, someone
 * else's or no one's), then a read.
 */
import fc from 'fast-check';
import type { ModelSettings } from '../../model/settings.ts';
import { projectRead, projectRows, projectWorld, projectWrite } from '../../generators/project.ts';
import { callerFrom, peopleRows, peopleWithRoles } from '../../generators/student.ts';
import { callerOf } from '../../generators/identities.ts';
import type { DataCase, DataStep } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import { withReadBack } from '../../generators/read-back.ts';
import { callerId, clause, insertsInto, readClause, sidedClause } from '../clauses.ts';
import { rowsOf } from '../../../../engine/model/world.ts';
import { rolesByMeaning, firstOf } from '../../generators/roles.ts';

function cases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  const { plain, vsUnrestricted } = rolesByMeaning(settings);
  const roles = [null, ...plain, ...settings.projects.professorRoles, ...settings.projects.professorRoles, ...settings.projects.actorRoles.slice(0, 3), ...firstOf(vsUnrestricted)];
  return peopleWithRoles(settings, roles, 1, 4).chain((list) => {
    // Often a professor or a project actor: the two whose writes the row rules check field by field.
    const holding = (roles: readonly string[]) => list.filter((p) => roles.includes(p.profile?.role as string));
    const writers = [holding(settings.projects.professorRoles), holding(settings.projects.actorRoles)].filter((g) => g.length > 0);
    const caller = fc.oneof(callerFrom(list), ...writers.map((g) => fc.constantFrom(...g).map(callerOf)));
    const addressing = fc.constantFrom<string | null>('pending', 'pending', 'pending', 'signed', null);
    return fc.tuple(projectWorld(list), caller, addressing, fc.noShrink(fc.uuid({ version: 4 })), fc.constantFrom(...list.map((p) => p.id))).chain(([w0, caller, addressMe, requestId, actor]) => {
        // Often a request (mostly pending) addresses the caller, so a professor's upload reaches the policy's other checks.
        const w = addressMe && caller.kind === 'user'
          ? { ...w0, signRequests: [...w0.signRequests, { id: requestId, project_id: w0.projects[0].id, actor_id: actor, professor_id: caller.id, status: addressMe }] }
          : w0;
        const read = projectRead(w).map((request): DataStep => ({ caller, request }));
        const professor = caller.kind === 'user' && holding(settings.projects.professorRoles).some((p) => p.id === caller.id);
        const write = projectWrite(w, list, caller, professor).map((request): DataStep => ({ caller, request }));
        const steps = fc.oneof({ weight: professor ? 1 : 2, arbitrary: read.map((s) => [s]) }, { weight: professor ? 5 : 3, arbitrary: fc.tuple(write, read).map(([a, b]) => [a, b]) });
        return steps.map((s): DataCase => ({ world: { ...peopleRows(list), ...projectRows(w) }, steps: s }));
      });
  });
}

const CLAUSES = [
  clause('R10.professor-upload', "a professor's signed-file upload", (s) => {
    const r = s.step.request;
    const role = rowsOf(s.before, 'users').find((u) => u.id === callerId(s))?.role;
    return insertsInto(s, 'project_files') && r.kind === 'insert' && r.rows.every((row) => row.kind === 'signed') && s.settings.projects.professorRoles.includes(String(role));
  }),
  readClause('R10.read-sign-requests', 'project_sign_requests'),
  // Sign requests embedded in a projects read (`select=id,title,project_sign_requests(*)`): read under their own row rules.
  sidedClause('R10.embed-sign-requests', "GET projects embedding project_sign_requests: other people's requests hidden / all shown", (s) => {
    const r = s.step.request;
    if (r.kind !== 'select' || r.table !== 'projects' || !r.embeds?.some((e) => e.table === 'project_sign_requests')) return undefined;
    if (s.outcome.kind === 'rejected') return 'refused';
    if (s.outcome.kind !== 'allowed' && s.outcome.kind !== 'filtered') return undefined;
    const there = rowsOf(s.before, 'project_sign_requests').length;
    if (there === 0) return undefined;
    const shown = (s.outcome.rows ?? []).reduce((n, row) => n + (Array.isArray(row.project_sign_requests) ? row.project_sign_requests.length : 0), 0);
    return shown < there ? 'refused' : 'allowed';
  }),
  readClause('R10.read-settings', 'project_settings'),
];

export const R10: DataProperty = {
  id: 'R10',
  rule: 10,
  title: 'projects: public reads, staff-only settings, professor sign-request scoping and signed uploads',
  tables: ['projects', 'project_documents', 'project_files', 'project_sign_requests', 'project_settings'],
  functions: ['current_user_is_project_actor'],
  cases: (settings) => withReadBack(cases(settings), ['project_sign_requests', 'project_settings']),
  clauses: CLAUSES,
};
