/**
 * Projects (spec §2; rule 10): projects, project_documents and project_files are readable by
 * anon and signed-in callers; project actors (settings.projects.actorRoles) insert them. A
 * professor's signed-file upload is an INSERT the row rules allow: kind 'signed', uploaded by
 * the professor, on a project with a pending sign request addressed to them. Sign requests are
 * visible to their actor and to the addressed professor only; project_settings is staff-only
 * (anon holds no grant).
 */
import { currentUserIsStaff, currentUserRole } from '../identity.ts';
import { decide, take } from '../branches.ts';
import type { Row } from '../../../../engine/model/json.ts';
import type { RuleContext, TableModel } from '../../../../engine/model/table-model.ts';
import { rowsOf } from '../../../../engine/model/world.ts';

export function currentUserIsProjectActor(ctx: RuleContext): boolean {
  const role = currentUserRole(ctx);
  return role !== null && ctx.settings.projects.actorRoles.includes(role);
}

/** current_user_is_addressed_professor(project_id): a professor with a request on the project in one of settings.projects.professorUpload.requestStatuses. */
export function currentUserIsAddressedProfessor(ctx: RuleContext, projectId: unknown): boolean {
  const role = currentUserRole(ctx);
  if (role === null || !ctx.settings.projects.professorRoles.includes(role) || ctx.uid === null) return false;
  const statuses = ctx.settings.projects.professorUpload.requestStatuses;
  return rowsOf(ctx.world, 'project_sign_requests').some((r) => r.project_id === projectId && r.professor_id === ctx.uid && statuses.includes(String(r.status)));
}

/** Rule 10: a professor's upload the row rules allow (settings.projects.professorUpload). */
function professorMayUpload(row: Row, ctx: RuleContext): boolean {
  const upload = ctx.settings.projects.professorUpload;
  if (!upload.kinds.includes(String(row.kind))) return take('R10.upload.kind'), false;
  if (upload.uploaderIsCaller && row.uploaded_by !== ctx.uid) return take('R10.upload.uploader'), false;
  return decide(currentUserIsAddressedProfessor(ctx, row.project_id), 'R10.upload.addressed', 'R10.upload.not-addressed');
}

const everyone = (): boolean => true;
const actor = (_row: Row, ctx: RuleContext) => currentUserIsProjectActor(ctx);

export const projectsTable: TableModel = {
  table: 'projects',
  columns: [
    { name: 'id', type: 'uuid', nullable: false },
    { name: 'title', type: 'text', nullable: false },
    { name: 'owner_id', type: 'uuid', nullable: true, default: null },
  ],
  primaryKey: ['id'],
  grants: { anon: ['select'], authenticated: ['select', 'insert'] },
  rowSecurity: true,
  rules: { select: everyone, insertCheck: actor },
};

export const projectDocumentsTable: TableModel = {
  table: 'project_documents',
  columns: [
    { name: 'id', type: 'uuid', nullable: false },
    { name: 'project_id', type: 'uuid', nullable: false },
    { name: 'title', type: 'text', nullable: false },
    { name: 'body', type: 'text', nullable: true, default: null },
  ],
  primaryKey: ['id'],
  grants: { anon: ['select'], authenticated: ['select', 'insert'] },
  foreignKeys: [{ column: 'project_id', references: 'projects', referencedColumn: 'id' }],
  rowSecurity: true,
  rules: { select: everyone, insertCheck: actor },
};

export const PROJECT_FILE_KINDS = ['file', 'signed'] as const;

export const projectFilesTable: TableModel = {
  table: 'project_files',
  columns: [
    { name: 'id', type: 'uuid', nullable: false },
    { name: 'project_id', type: 'uuid', nullable: false },
    { name: 'path', type: 'text', nullable: false },
    { name: 'kind', type: 'text', nullable: false, default: 'file', check: (v) => (PROJECT_FILE_KINDS as readonly unknown[]).includes(v) },
    { name: 'uploaded_by', type: 'uuid', nullable: true, default: null },
  ],
  primaryKey: ['id'],
  grants: { anon: ['select'], authenticated: ['select', 'insert'] },
  foreignKeys: [{ column: 'project_id', references: 'projects', referencedColumn: 'id' }],
  rowSecurity: true,
  rules: {
    select: everyone,
    insertCheck: (row, ctx) =>
      currentUserIsProjectActor(ctx) ? (take('R10.upload.actor'), true) : professorMayUpload(row, ctx),
  },
};

export const SIGN_REQUEST_STATUSES = ['pending', 'signed', 'declined'] as const;

export const projectSignRequestsTable: TableModel = {
  table: 'project_sign_requests',
  columns: [
    { name: 'id', type: 'uuid', nullable: false },
    { name: 'project_id', type: 'uuid', nullable: false },
    { name: 'actor_id', type: 'uuid', nullable: false },
    { name: 'professor_id', type: 'uuid', nullable: false },
    { name: 'status', type: 'text', nullable: false, default: 'pending', check: (v) => (SIGN_REQUEST_STATUSES as readonly unknown[]).includes(v) },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['select', 'insert'] },
  foreignKeys: [{ column: 'project_id', references: 'projects', referencedColumn: 'id' }],
  rowSecurity: true,
  rules: {
    select: (row, ctx) => {
      const actor = ctx.uid !== null && row.actor_id === ctx.uid;
      const professor = ctx.uid !== null && !actor && row.professor_id === ctx.uid;
      take(actor ? 'R10.sign-request.actor' : professor ? 'R10.sign-request.professor' : 'R10.sign-request.other');
      return actor || professor;
    },
    insertCheck: (row, ctx) => ctx.uid !== null && row.actor_id === ctx.uid && currentUserIsProjectActor(ctx),
  },
};

export const projectSettingsTable: TableModel = {
  table: 'project_settings',
  columns: [
    { name: 'key', type: 'text', nullable: false },
    { name: 'value', type: 'jsonb', nullable: true, default: null },
  ],
  primaryKey: ['key'],
  grants: { anon: [], authenticated: ['select'] },
  rowSecurity: true,
  rules: { select: (_row, ctx) => decide(currentUserIsStaff(ctx), 'R10.settings.staff', 'R10.settings.hidden') },
};

export const projectTables: TableModel[] = [projectsTable, projectDocumentsTable, projectFilesTable, projectSignRequestsTable, projectSettingsTable];
