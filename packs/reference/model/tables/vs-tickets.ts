/**
 * vs_tickets (spec §2; rules 1, 3, 6, 7, 12, 13). A submitter reads and updates their own
 * tickets; a VS handler those in their scope (vs-access.ts). Reads never show a deleted ticket.
 * WITH CHECK is the SELECT scope, so a handler's move out of it fails (rule 6). Direct API
 * writes are guarded: deleted_at never changes by PATCH (rule 7); a submitter who is not a
 * handler in scope changes only the allow-list (rule 1), and remarks are append-only for every
 * API caller, a submitter's entries being ticket-visible entries by the submitter label (rule 3).
 */
import { decide, take } from '../branches.ts';
import { createHash } from 'node:crypto';
import { currentUserRole } from '../identity.ts';
import type { Json, Row } from '../../../../engine/model/json.ts';
import { applyOwnerGuard, type OwnerGuard } from '../../../../engine/model/owner-guard.ts';
import type { RuleContext, TableModel, TriggerResult } from '../../../../engine/model/table-model.ts';
import { idAsKept, textAsUuid, uuidAsBigint } from '../../../../engine/model/target-ids.ts';
import { kept } from '../../../../engine/model/kept.ts';
import { escapeRegExp } from '../../../../engine/regexp.ts';
import { jsonEqual } from '../../../../engine/model/values.ts';
import { rowsOf, type World } from '../../../../engine/model/world.ts';
import { vsCanDelete, vsInScope } from './vs-access.ts';
import { refusal } from '../refusals.ts';
import { storableDepartment, type ModelSettings } from '../settings.ts';
import { secureReading, type Outcome } from '../../../../engine/model/outcome.ts';
import { notDeleted } from '../soft-delete.ts';

/** The public board's handle of a ticket (settings.vs.publicHandle): never its id (the submitter's tracking capability). */
export function vsPublicRef(id: Json, settings: ModelSettings): string | null {
  const handle = settings.vs.publicHandle;
  if (typeof id !== 'string') return null;
  // Asked for the same few ids in every case (each read of the board): a digest each time, kept per settings.
  let refs = publicRefs.get(handle);
  if (!refs) publicRefs.set(handle, (refs = new Map()));
  return kept(refs, id, (key) => {
    if (handle.from === 'random') return drawnHandle(key);
    const { prefix, digest, length, idAs } = handle;
    const digested = idAsKept(idAs, key);
    return `${prefix}${createHash(digest).update(digested, 'utf8').digest('hex').slice(0, length)}`;
  });
}
const publicRefs = new WeakMap<ModelSettings['vs']['publicHandle'], Map<string, string>>();

/**
 * The handle the model draws for a ticket where the target draws its own (publicHandle.from:
 * 'random'): a version-4 uuid from a salted digest of the id. Fixed per id (the same case, the
 * same handle), and no formula a target would apply to its id gives it.
 */
function drawnHandle(id: string): string {
  const h = createHash('sha256').update(`policyfuzz public handle\u0000${id}`, 'utf8').digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The place of a handle the target drew for a ticket the case inserted (publicHandle.from: 'random'): neither side's value is the model's. */
export const TARGET_DRAWN_HANDLE = '(a handle the target drew for a ticket the case inserted)';

/**
 * Public handles as compared, alike on both sides. Under publicHandle.from 'random' the model
 * knows the handles of the world's tickets (written with them: ColumnSpec.targetDraws), not those
 * the target drew for tickets the case inserted: a handle that is none of the world's stands as
 * TARGET_DRAWN_HANDLE. A world ticket answered with its id, or anything derived from it, still differs.
 */
export function handlesAsCompared(rows: Row[], world: World, settings: ModelSettings): Row[] {
  if (settings.vs.publicHandle.from !== 'random' || !rows.some((r) => 'public_ref' in r)) return rows;
  const known = new Set(rowsOf(world, 'vs_tickets').map((t) => t.public_ref));
  return rows.map((r) => ('public_ref' in r && !known.has(r.public_ref) ? { ...r, public_ref: TARGET_DRAWN_HANDLE } : r));
}

/** What vs_post_public_comment names a ticket by (settings.vs.publicCommentKey): its public handle, or its id. */
export function vsPublicCommentKey(id: Json, settings: ModelSettings): string | null {
  return settings.vs.publicCommentKey === 'ticket-id' ? (typeof id === 'string' ? id : null) : vsPublicRef(id, settings);
}

/**
 * Whether a request's `ref` names ticket `t` by its public handle as the target holds it. Under
 * publicHandle.from 'random' that is the handle the world's row was written with: a ticket the
 * case inserted holds one the target drew, which no request can name.
 */
export function isPublicRefOf(t: Row, ref: Json | undefined, settings: ModelSettings): boolean {
  if (typeof ref !== 'string') return false;
  return settings.vs.publicHandle.from === 'random' ? t.public_ref === ref : vsPublicRef(t.id, settings) === ref;
}

/**
 * Public comments as compared (the spec names no field of them): without the time the server
 * stamps (`at`) and the model's `by` word (`staff`, `member`); any other field still shows.
 */
/** The secure reading commentsAsCompared holds, counted where a step agrees only by it. */
export const PUBLIC_COMMENTS_AS_COMPARED = 'vs.public-comments-without-time-and-by';

export function commentsAsCompared(comments: Json): Json {
  if (!Array.isArray(comments)) return comments;
  return comments.map((c) => (isObject(c) ? Object.fromEntries(Object.entries(c).filter(([k, v]) => k !== 'at' && !(k === 'by' && (v === 'staff' || v === 'member')))) : c));
}

export function isSubmitter(row: Row, ctx: RuleContext): boolean {
  return ctx.uid !== null && row.submitter_id === ctx.uid;
}

function isObject(v: Json | undefined): v is { [k: string]: Json } {
  return v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);
}

/** Rule 12: a remark the submitter sees: a ticket-visible entry not flagged internal. */
export function isSubmitterVisibleRemark(e: Json): boolean {
  if (!isObject(e)) return take('R12.remark.not-object'), false;
  if (e.vis !== 'ticket') return take('vis' in e ? 'R12.remark.vis-other' : 'R12.remark.vis-absent'), false;
  // Only true hides: a null, false or absent "internal" is shown.
  take(!('internal' in e) ? 'R12.remark.internal-absent' : e.internal === true ? 'R12.remark.internal-true' : e.internal === null ? 'R12.remark.internal-null' : 'R12.remark.internal-false');
  return e.internal !== true;
}

/**
 * Rule 12: does this remark entry carry the id of a ticket of the world other than `ownId`?
 * Any text of the entry counts (its JSON form), an id bounded as in mentionsTicketId.
 */
export function carriesOtherTicketId(e: Json, ownId: Json | undefined, world: World): boolean {
  return mentionsTicketId(JSON.stringify(e), world, ownId);
}

/**
 * Rule 12 for every writer of remarks: appended entries that the submitter would see and that
 * carry another ticket's id are refused, or stored internal (settings.vs.idBearingRemarks).
 */
/** A word shaped like a ticket id (letters, a dash, digits: `VS-1001`, `PR-0042`). */
const ID_SHAPED_WORD = /(^|[^A-Za-z0-9])[A-Za-z]{2,}-[0-9]+($|[^A-Za-z0-9])/;

export function idBearingRemarks(settings: ModelSettings, ownId: Json | undefined, world: World, entries: Json[], what: string): { reject: Outcome } | { entries: Json[]; refusalIsSecure?: Outcome } {
  const leaking = (e: Json) => isSubmitterVisibleRemark(e) && carriesOtherTicketId(e, ownId, world);
  // Rule 12 says only "id-bearing remarks are marked internal": a schema refusing one not marked
  // so (a vis other than ticket included: the flag is what the spec names) whose text holds any
  // ticket's id, its own or inside a longer one (VS-1001 in VS-10010), or a word shaped like one
  // (VS-1001 of no ticket here: a pattern cannot know which exist), reads that as strictly, as securely.
  const idShaped = (e: Json) => {
    if (!isObject(e) || e.internal === true) return false;
    const text = JSON.stringify(e);
    return ID_SHAPED_WORD.test(text) || rowsOf(world, 'vs_tickets').some((t) => typeof t.id === 'string' && t.id !== '' && ticketIdForms(t.id).some((form) => text.includes(form)));
  };
  const secure = entries.some(idShaped) ? { refusalIsSecure: secureReading('vs.id-bearing-remark-refused', refusal(settings, 'id-bearing-remark', `${what}: a ticket-visible remark holds a ticket id`)) } : {};
  if (!entries.some(leaking)) return { entries, ...secure };
  take('R12.id-bearing.written');
  if (settings.vs.idBearingRemarks === 'refused') return { reject: refusal(settings, 'id-bearing-remark', `${what}: a ticket-visible remark carries another ticket's id`) };
  return { entries: entries.map((e) => (leaking(e) && isObject(e) ? { ...e, internal: true } : e)), ...secure };
}

/** Rule 3: an entry a submitter may append: vis 'ticket', by the submitter label, not internal. */
export function isValidSubmitterRemark(e: Json, label: Json): boolean {
  return isObject(e) && e.vis === 'ticket' && typeof label === 'string' && e.by === label && (!('internal' in e) || e.internal === false);
}

/** Rule 3's decisions on one appended entry of a submitter, each key on its own (model branches). */
function recordRemarkBranches(e: Json, label: Json): void {
  if (!isObject(e)) return take('R03.remark.not-object');
  if (!('vis' in e)) take('R03.remark.vis-absent');
  else if (e.vis !== 'ticket') take('R03.remark.vis-other');
  if (!('by' in e)) take('R03.remark.by-absent');
  else if (e.by !== label) take(typeof e.by === 'string' && typeof label === 'string' && e.by.toLowerCase() === label.toLowerCase() ? 'R03.remark.by-case-only' : 'R03.remark.by-other');
  take(!('internal' in e) ? 'R03.remark.internal-absent' : e.internal === false ? 'R03.remark.internal-false' : 'R03.remark.internal-other');
  if (isValidSubmitterRemark(e, label)) take('R03.remark.valid');
}

function arrayCapped(cap: number) {
  return (v: Json) => Array.isArray(v) && v.length <= cap;
}

export const vsTicketsGuard: OwnerGuard = {
  table: 'vs_tickets',
  isOwner: isSubmitter,
  isExempt: (row, ctx) => vsInScope(ctx, row.target_dept),
  editable: (ctx) => [...ctx.settings.vs.ownerEditableColumns, ...ctx.settings.vs.guardExcludedColumns],
  ownersCannotUpdate: (ctx) => ctx.settings.vs.ownerEditableColumns.length === 0,
  refusal: (ctx, changed) => refusal(ctx.settings, 'privileged-column', `vs_tickets: ${changed.join(', ')}`),
  branch: (decision) => take(`R01.vs_tickets.${decision}`),
};

/** Rule 3: a ticket filed with nothing its submitter may not set. */
const filedPlain = (row: Row): boolean =>
  row.is_public === false &&
  row.public_title === null &&
  row.duplicate_of === null &&
  row.status === 'open' &&
  Array.isArray(row.tags) &&
  row.tags.length === 0 &&
  jsonEqual(row.remarks, []) &&
  jsonEqual(row.public_comments, []);

/**
 * A handler filing a ticket of their own scope with what they may set by an update
 * (settings.vs.handlerFiling): rule 12 still keeps ticket ids out of visible remarks. Remarks
 * that are no array are the remarks CHECK's to refuse (the spec's column is an array), or the
 * policy's, as securely (engine.ts POLICY_REFUSES_UNSTORABLE_ROW): never stored either way.
 */
const filedByHandler = (row: Row, ctx: RuleContext): boolean =>
  ctx.settings.vs.handlerFiling === 'handlers-in-scope' &&
  vsInScope(ctx, row.target_dept) &&
  (!Array.isArray(row.remarks) || !row.remarks.some((e) => isSubmitterVisibleRemark(e) && carriesOtherTicketId(e, row.id, ctx.world)));

const visible = (row: Row, ctx: RuleContext) => notDeleted(row) && (submitterReachesTable(row, ctx) || vsInScope(ctx, row.target_dept));

/** A submitter reaches their own ticket through the table unless the table is the handlers' (settings.vs.submitterTableAccess). */
function submitterReachesTable(row: Row, ctx: RuleContext): boolean {
  return isSubmitter(row, ctx) && ctx.settings.vs.submitterTableAccess === 'submitters-and-handlers';
}

function guardUpdate(oldRow: Row, newRow: Row, ctx: RuleContext): TriggerResult {
  if (ctx.uid === null) return { row: newRow };
  if ((oldRow.deleted_at ?? null) === null ? (newRow.deleted_at ?? null) !== null : !jsonEqual(oldRow.deleted_at, newRow.deleted_at ?? null)) {
    take('R07.patch.deleted-at');
    return { reject: refusal(ctx.settings, 'deleted-at-by-function', 'vs_tickets: deleted_at is set only by soft_delete_vs_ticket') };
  }
  const guarded = applyOwnerGuard(vsTicketsGuard, oldRow, newRow, ctx);
  if ('reject' in guarded) return guarded;
  const before = Array.isArray(oldRow.remarks) ? oldRow.remarks : [];
  const after = newRow.remarks;
  const remarksChanged = !jsonEqual(oldRow.remarks ?? null, after ?? null);
  if (!Array.isArray(after) || after.length < before.length || !jsonEqual(after.slice(0, before.length), before)) {
    take(!Array.isArray(after) ? 'R03.remarks.not-array' : after.length < before.length ? 'R03.remarks.shortened' : 'R03.remarks.rewritten');
    return { reject: refusal(ctx.settings, 'remarks-append-only', 'vs_tickets: remarks are append-only') };
  }
  if (remarksChanged) take('R03.remarks.appended');
  if (vsTicketsGuard.isOwner(oldRow, ctx) && vsTicketsGuard.isExempt(oldRow, ctx) && after.length > before.length) take('R03.remark.handler-exempt');
  if (vsTicketsGuard.isOwner(oldRow, ctx) && !vsTicketsGuard.isExempt(oldRow, ctx)) {
    const label = ctx.settings.vs.submitterLabel ?? oldRow.submitter_label;
    for (const e of after.slice(before.length)) recordRemarkBranches(e, label);
    if (!after.slice(before.length).every((e) => isValidSubmitterRemark(e, label))) {
      return { reject: refusal(ctx.settings, 'remark-author', "vs_tickets: a submitter's remark must be a ticket remark by the submitter label") };
    }
  }
  const appended = idBearingRemarks(ctx.settings, oldRow.id, ctx.world, after.slice(before.length), 'vs_tickets');
  if ('reject' in appended) return appended;
  // Rule 3 shapes a submitter's entries only: a handler's entry that is no remark (no object with
  // a vis) is stored; a schema checking every writer's entries refuses it, as securely.
  const byHandler = !vsTicketsGuard.isOwner(oldRow, ctx) || vsTicketsGuard.isExempt(oldRow, ctx);
  const malformed = byHandler && after.slice(before.length).some(isNoRemark);
  const row = { ...newRow, remarks: [...before, ...appended.entries] };
  // Each check such a schema may make, any refusing first: an entry both id-shaped and no remark meets either.
  const refusalIsSecure = [...(appended.refusalIsSecure ? [appended.refusalIsSecure] : []), ...(malformed ? [noRemarkRefusal(ctx.settings, after.slice(before.length))] : [])];
  return refusalIsSecure.length ? { row, refusalIsSecure } : { row };
}

/**
 * An entry that is no remark (no object with a vis and an author `by`, which rule 3 asks of a
 * submitter's): stored from a handler (rule 3 shapes a submitter's), or refused by a schema
 * checking every writer's entries (stranger-app-4 asks every entry for both).
 */
export const isNoRemark = (e: Json): boolean => !isObject(e) || typeof e.vis !== 'string' || typeof e.by !== 'string';

/**
 * The refusal a guard checking every writer's entries may answer with, named by what the entries
 * lack: one with no vis at all (`vs.no-remark-refused`), or only an author (`vs.authorless-remark-refused`).
 */
export const noRemarkRefusal = (settings: ModelSettings, entries: readonly Json[]): Outcome =>
  secureReading(entries.some((e) => !isObject(e) || typeof e.vis !== 'string') ? 'vs.no-remark-refused' : 'vs.authorless-remark-refused', refusal(settings, 'remark-author', 'vs_tickets: an entry that is no remark (no vis or no by)'));

export const GENERIC_REMARK = '<generic remark: carries no ticket id>';

/** Does `text` mention a ticket id of the world but `except` (bounded, so VS-1 is not found in VS-10)? */
export function mentionsTicketId(text: string, world: World, except?: Json): boolean {
  return namedTicketIds(text, world, except).length > 0;
}

/** The ticket ids of the world `text` mentions (bounded, as mentionsTicketId), in id order. */
/**
 * A ticket id as text may hold it: the model's, or as the target keeps it (a uuid, a bigint:
 * mapping uuidIds, bigintIds), written by the target's own functions or translated in a case's text.
 * Each form is kept per id where it is made (target-ids.ts): no second cache here.
 */
const ticketIdForms = (id: string): readonly string[] => [id, textAsUuid(id), String(uuidAsBigint(id))];

export function namedTicketIds(text: string, world: World, except?: Json): string[] {
  const ids = rowsOf(world, 'vs_tickets').flatMap((t) => {
    if (typeof t.id !== 'string' || !t.id || t.id === except) return [];
    const named = ticketIdForms(t.id).find((form) => text.includes(form));
    if (named === undefined) return [];
    return decide(boundedPattern(named).test(text), 'R12.id.bounded', 'R12.id.unbounded-only') ? [t.id] : [];
  });
  return [...new Set(ids)].sort();
}

/** An id standing alone (not inside a longer one), compiled once per id: the same few ids are looked for in every compared remark. */
const boundedPatterns = new Map<string, RegExp>();

function boundedPattern(id: string): RegExp {
  return kept(boundedPatterns, id, patternOf);
}
const patternOf = (id: string) => new RegExp(`(^|[^A-Za-z0-9])${escapeRegExp(id)}($|[^A-Za-z0-9])`);

/**
 * Rule 12 says id-bearing remarks are marked internal (the merge's "merged into <primary>" is
 * one); it does not say their words. An internal entry naming tickets compares as the ids it
 * names, on both sides: `duplicate of VS-2` and `merged into VS-2` agree; naming another ticket,
 * or none, does not.
 */
export function internalRemarkAsCompared(text: string, world: World): string | undefined {
  const ids = namedTicketIds(text, world);
  return ids.length ? `<internal remark naming ${ids.join(', ')}>` : undefined;
}

/**
 * Rule 12 says the auto-close remark is generic, without an id; it does not say its words. Both
 * sides' auto-close entries compare as GENERIC_REMARK when they mention no ticket id, and keep
 * their text (so the difference shows) when they do.
 */
export function remarksAsCompared(rows: Row[], world: World, settings: ModelSettings): Row[] {
  return rows.map((r) =>
    Array.isArray(r.remarks)
      ? {
          ...r,
          remarks: r.remarks.map((e) => {
            if (isObject(e) && e.by === settings.vs.autoCloseAuthor && typeof e.text === 'string' && !mentionsTicketId(e.text, world)) return { ...e, text: GENERIC_REMARK };
            const internal = isObject(e) && e.internal === true && typeof e.text === 'string' ? internalRemarkAsCompared(e.text, world) : undefined;
            return internal ? { ...(e as Row), text: internal } : e;
          }),
        }
      : r,
  );
}

export const vsTicketsTable: TableModel = {
  table: 'vs_tickets',
  comparedAs: (rows, world, settings) => remarksAsCompared(rows, world, settings).map((r) => ('public_comments' in r ? { ...r, public_comments: commentsAsCompared(r.public_comments) } : r)),
  comparedAsReading: { name: PUBLIC_COMMENTS_AS_COMPARED, strictly: (rows, world, settings) => remarksAsCompared(rows, world, settings) },
  valueSettings: { public_ref: 'vs.publicHandle' },
  rowsSetting: 'vs.submitterTableAccess',
  columns: [
    { name: 'id', type: 'text', nullable: false },
    { name: 'submitter_id', type: 'uuid', nullable: true, default: null },
    { name: 'submitter_label', type: 'text', nullable: false, default: 'student' },
    { name: 'target_dept', type: 'text', nullable: false, check: (v, s) => storableDepartment(s, v) },
    { name: 'status', type: 'text', nullable: false, default: 'open', check: (v, s) => typeof v === 'string' && s.vs.statuses.includes(v) },
    { name: 'category', type: 'text', nullable: true, default: null },
    { name: 'is_public', type: 'boolean', nullable: false, default: false },
    { name: 'public_title', type: 'text', nullable: true, default: null },
    { name: 'duplicate_of', type: 'text', nullable: true, default: null },
    { name: 'is_duplicate', type: 'boolean', nullable: false, generated: (row) => (row.duplicate_of ?? null) !== null },
    { name: 'public_ref', type: 'text', nullable: true, generated: (row, settings) => vsPublicRef(row.id, settings), targetDraws: (settings) => settings.vs.publicHandle.from === 'random' },
    { name: 'tags', type: 'text[]', nullable: false, default: [] },
    { name: 'remarks', type: 'jsonb', nullable: false, default: [], check: (v, s) => arrayCapped(s.vs.remarksCap)(v), checkRefusal: (s) => refusal(s, 'remarks-cap') },
    { name: 'public_comments', type: 'jsonb', nullable: false, default: [], check: (v, s) => arrayCapped(s.vs.publicCommentsCap)(v) },
    { name: 'report', type: 'text', nullable: false, default: '' },
    // Set by soft_delete_vs_ticket to now(): only whether it is null is predictable.
    { name: 'deleted_at', type: 'timestamptz', nullable: true, default: null, serverAssigned: true },
    { name: 'updated_at', type: 'timestamptz', nullable: false, serverAssigned: true },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['select', 'insert', 'update'] },
  rowSecurity: true,
  rules: {
    select: visible,
    insertCheck: (row, ctx) => isSubmitter(row, ctx) && currentUserRole(ctx) !== null && notDeleted(row) && (filedPlain(row) || filedByHandler(row, ctx)),
    updateUsing: visible,
    updateCheck: (row, ctx) => {
      const submitter = notDeleted(row) && submitterReachesTable(row, ctx);
      const inScope = notDeleted(row) && !submitter && vsInScope(ctx, row.target_dept);
      take(submitter ? 'R06.check.submitter' : inScope ? 'R06.check.in-scope' : 'R06.check.out-of-scope');
      return submitter || inScope;
    },
    deleteUsing: (row, ctx) => notDeleted(row) && vsCanDelete(ctx, row.target_dept),
  },
  beforeUpdate: guardUpdate,
};
