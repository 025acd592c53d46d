/**
 * Projects (rule 10): projects with documents and files, sign requests between the people
 * (actors and professors, any status), settings rows; and the writes rule 10 is about: a file
 * upload (signed or not, by oneself or in someone else's name, to an addressed project or not),
 * a sign request (or an upsert of an existing one back to pending, as supabase-js `.upsert()`
 * sends it: no UPDATE grant means a merge is refused whatever conflicts), a project or document.
 */
import fc from 'fast-check';
import type { Caller } from '../../../engine/model/caller.ts';
import type { Row } from '../../../engine/model/json.ts';
import type { ApiRequest } from '../../../engine/model/request.ts';
import type { OrderTerm } from '../../../engine/model/embed.ts';
import type { World } from '../../../engine/model/world.ts';
import type { Person } from './identities.ts';
import { oneConditionBroken } from './boundary.ts';

const fixedId = fc.noShrink(fc.uuid({ version: 4 }));

export interface ProjectWorld {
  projects: Row[];
  documents: Row[];
  files: Row[];
  signRequests: Row[];
  settings: Row[];
}

export function projectWorld(list: Person[]): fc.Arbitrary<ProjectWorld> {
  const ids = list.map((p) => p.id);
  return fc.uniqueArray(fixedId, { minLength: 1, maxLength: 3 }).chain((projectIds) =>
    fc.record({
      projects: fc.constant(projectIds.map((id, i) => ({ id, title: `Project ${i + 1}`, owner_id: ids[i % ids.length] }))),
      documents: fc.array(fc.noShrink(fc.record({ id: fixedId, project_id: fc.constantFrom(...projectIds), title: fc.constantFrom('Proposal', 'Budget'), body: fc.option(fc.string({ maxLength: 10 }), { nil: null }) })), { maxLength: 3 }),
      files: fc.array(fc.noShrink(fc.record({ id: fixedId, project_id: fc.constantFrom(...projectIds), path: fc.constantFrom('a.pdf', 'b/c.pdf'), kind: fc.constantFrom('file', 'signed'), uploaded_by: fc.option(fc.constantFrom(...ids), { nil: null }) })), { maxLength: 3 }),
      signRequests: fc.array(
        fc.noShrink(fc.record({ id: fixedId, project_id: fc.constantFrom(...projectIds), actor_id: fc.constantFrom(...ids), professor_id: fc.constantFrom(...ids), status: fc.constantFrom('pending', 'pending', 'signed', 'declined') })),
        { maxLength: 4 },
      ),
      settings: fc.uniqueArray(fc.record({ key: fc.constantFrom('signing_open', 'deadline', 'reviewers'), value: fc.constantFrom<Row['value']>(true, '2024-06-01', ['a', 'b']) }), { maxLength: 2, selector: (r) => r.key }),
    }),
  );
}

export function projectRows(w: ProjectWorld): World {
  return { projects: w.projects, project_documents: w.documents, project_files: w.files, project_sign_requests: w.signRequests, project_settings: w.settings };
}

export const PROJECT_READABLE = ['projects', 'project_documents', 'project_files', 'project_sign_requests', 'project_settings'] as const;

/** The tables holding a project's rows (`project_id` → projects.id): what a project read embeds. */
const PROJECT_CHILDREN = ['project_documents', 'project_files', 'project_sign_requests'] as const;

/**
 * The columns an embedded child may be ordered by (supabase-js `.order(col, { referencedTable })`):
 * uuids, which sort by their bytes on any server (a text column's order depends on the collation,
 * embed.ts sortRows); `uploaded_by` is nullable, so its nulls' place counts.
 */
const CHILD_ORDER_COLUMNS: Record<string, string[]> = {
  project_sign_requests: ['id', 'professor_id', 'actor_id'],
  project_files: ['uploaded_by', 'id'],
  project_documents: ['id'],
};
const ORDER_COLUMNS = [...new Set(Object.values(CHILD_ORDER_COLUMNS).flat())];
const orderTerm = fc.record(
  { column: fc.constantFrom(...ORDER_COLUMNS), direction: fc.constantFrom<OrderTerm['direction']>(undefined, 'asc', 'desc'), nulls: fc.constantFrom<OrderTerm['nulls']>(undefined, undefined, 'first', 'last') },
).map((t): OrderTerm => ({ column: t.column, ...(t.direction ? { direction: t.direction } : {}), ...(t.nulls ? { nulls: t.nulls } : {}) }));
const embedOrder = fc.array(orderTerm, { minLength: 1, maxLength: 2 });

/**
 * A read of one project table; often (supabase-js `.select('*, project_sign_requests(*)')`) a
 * projects read embedding a child table (sign requests most: their rows are the caller's alone
 * while every project is public), `!inner` at times, in an `order=` at times, or a child read
 * embedding its project.
 */
export function projectRead(w: ProjectWorld): fc.Arbitrary<ApiRequest> {
  const plain = fc.record({
    table: fc.constantFrom(...PROJECT_READABLE),
    byProject: fc.boolean(),
    project: fc.constantFrom(...w.projects.map((p) => p.id as string)),
  }).map(({ table, byProject, project }): ApiRequest => ({
    kind: 'select',
    table,
    columns: '*',
    filters: byProject && table !== 'projects' && table !== 'project_settings' ? [{ column: 'project_id', op: 'eq', value: project }] : [],
  }));
  const child = fc.constantFrom<string>('project_sign_requests', 'project_sign_requests', ...PROJECT_CHILDREN);
  const withChildren = fc.record({ table: child, inner: fc.boolean(), columns: fc.constantFrom<string[] | '*'>('*', ['id', 'status']), order: fc.option(embedOrder, { nil: undefined }) }).map(({ table, inner, columns, order }): ApiRequest => {
    const embedColumns = table === 'project_sign_requests' ? columns : '*';
    // Ordered by a column the embed shows, so the order itself is compared (an unselected one orders nothing visible).
    const shown = order?.filter((t) => embedColumns === '*' ? (CHILD_ORDER_COLUMNS[table] ?? []).includes(t.column) : embedColumns.includes(t.column));
    return { kind: 'select', table: 'projects', columns: ['id', 'title'], filters: [], embeds: [{ table, columns: embedColumns, ...(inner ? { inner } : {}), ...(shown?.length ? { order: shown } : {}) }] };
  });
  const withProject = child.map((table): ApiRequest => ({ kind: 'select', table, columns: '*', filters: [], embeds: [{ table: 'projects', columns: ['id', 'title'] }] }));
  return fc.oneof({ weight: 3, arbitrary: plain }, { weight: 2, arbitrary: withChildren }, { weight: 1, arbitrary: withProject });
}

/**
 * A write of rule 10, aimed mostly at a professor's signed-file upload (`professor`: the caller is
 * one, so the upload in their own name is drawn more often still: its boundaries are many and
 * each needs a professor caller).
 */
export function projectWrite(w: ProjectWorld, list: Person[], caller: Caller, professor = false): fc.Arbitrary<ApiRequest> {
  const ids = list.map((p) => p.id);
  const self = caller.kind === 'user' ? [caller.id] : [];
  // Projects a pending request addresses the caller on, first; then the boundaries around them:
  // a project where the caller's request has another status, and one where none addresses them
  // while one elsewhere does (the request must be for this very project, and pending).
  const mine = w.signRequests.filter((r) => r.professor_id === (caller.kind === 'user' ? caller.id : null));
  const addressed = mine.filter((r) => r.status === 'pending').map((r) => r.project_id as string);
  const otherStatus = mine.filter((r) => r.status !== 'pending').map((r) => r.project_id as string).filter((id) => !addressed.includes(id));
  const elsewhere = w.projects.map((p) => p.id as string).filter((id) => !mine.some((r) => r.project_id === id));
  const project = fc.oneof(
    ...(addressed.length ? [{ weight: 5, arbitrary: fc.constantFrom(...addressed) }] : []),
    ...(otherStatus.length ? [{ weight: 2, arbitrary: fc.constantFrom(...otherStatus) }] : []),
    ...(addressed.length && elsewhere.length ? [{ weight: 2, arbitrary: fc.constantFrom(...elsewhere) }] : []),
    { weight: 1, arbitrary: fc.constantFrom(...w.projects.map((p) => p.id as string)) },
  );
  // The person a row names (a file's uploader, a request's actor): the caller or someone else;
  // only the caller may pass the row rules. An uploader may also be no one.
  const others = ids.filter((id) => !self.includes(id));
  const named = fc.oneof(
    ...(self.length ? [{ weight: professor ? 6 : 3, arbitrary: fc.constantFrom(...self) }] : []),
    ...(others.length ? [{ weight: 2, arbitrary: fc.constantFrom(...others) }] : []),
  );
  const uploader = fc.oneof({ weight: 5, arbitrary: named.map((id): string | null => id) }, { weight: 1, arbitrary: fc.constant<string | null>(null) });
  const returning = fc.constantFrom('representation' as const, 'minimal' as const);
  // Sign requests naming the caller first (a professor re-opening one that is no longer pending).
  const involving = w.signRequests.filter((r) => self.includes(r.professor_id as string) || self.includes(r.actor_id as string));
  const existing = [...involving, ...involving, ...w.signRequests];
  const upload = (fields: fc.Arbitrary<{ project_id: string; kind: string; uploaded_by: string | null }>) =>
    fc
      .record({ id: fixedId, path: fc.constantFrom('signed.pdf', 'x.pdf'), returning, fields })
      .map(({ returning: r, id, path, fields: f }): ApiRequest => ({ kind: 'insert', table: 'project_files', rows: [{ id, project_id: f.project_id, path, kind: f.kind, uploaded_by: f.uploaded_by }], returning: r }));
  // A professor's upload with exactly one of the upload policy's conditions broken (signed, in
  // their own name, on a project a pending request addresses them on): the free upload below
  // rarely breaks the uploader alone (first at case 300 of seed 1 on a policy that forgot it).
  const atBoundary =
    professor && addressed.length && self.length
      ? [
          {
            weight: 4,
            arbitrary: upload(
              oneConditionBroken({
                kind: { met: fc.constant('signed'), broken: fc.constant('file') },
                uploaded_by: { met: fc.constant<string | null>(self[0]), broken: fc.oneof(...(others.length ? [fc.constantFrom<string | null>(...others)] : []), fc.constant<string | null>(null)) },
                project_id: { met: fc.constantFrom(...addressed), ...(otherStatus.length || elsewhere.length ? { broken: fc.constantFrom(...otherStatus, ...elsewhere) } : {}) },
              }),
            ),
          },
        ]
      : [];
  return fc.oneof(
    ...atBoundary,
    ...(existing.length
      ? [
          {
            weight: professor ? 3 : 1,
            arbitrary: fc
              .record({ request: fc.constantFrom(...existing), resolution: fc.constantFrom('merge-duplicates' as const, 'merge-duplicates' as const, 'ignore-duplicates' as const), returning })
              .map(({ request, resolution, returning: r }): ApiRequest => ({ kind: 'insert', table: 'project_sign_requests', rows: [{ ...request, status: 'pending' }], returning: r, upsert: { resolution } })),
          },
        ]
      : []),
    {
      weight: professor ? 14 : 6,
      arbitrary: upload(fc.record({ project_id: project, kind: fc.constantFrom('signed', 'signed', 'file'), uploaded_by: uploader })),
    },
    {
      weight: 3,
      arbitrary: fc
        .record({ id: fixedId, project_id: project, actor_id: named, professor_id: fc.constantFrom(...ids), returning })
        .map(({ returning: r, ...row }): ApiRequest => ({ kind: 'insert', table: 'project_sign_requests', rows: [row], returning: r })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ id: fixedId, project_id: project, title: fc.constant('Minutes'), returning })
        .map(({ returning: r, ...row }): ApiRequest => ({ kind: 'insert', table: 'project_documents', rows: [row], returning: r })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ id: fixedId, title: fc.constant('New project'), returning })
        .map(({ returning: r, ...row }): ApiRequest => ({ kind: 'insert', table: 'projects', rows: [row], returning: r })),
    },
  );
}
