/**
 * The VS functions (spec §4.2; rules 7, 8, 9, 12, 13, 14), stated from the spec:
 * - get_vs_ticket_by_id: exact id, deleted excluded, sanitised (duplicate_of null, tags [],
 *   only submitter-visible remarks, is_duplicate kept), an explicit column allow-list;
 * - soft_delete_vs_ticket: staff only (a null role fails closed), re-checks the DELETE policy;
 * - find_similar_vs_tickets, merge_vs_tickets, vs_transfer_dept, vs_set_public: VS handlers,
 *   re-applying the handler scope (vp_admin: own department only); cross-department merges,
 *   null/blank destinations and publishing an unknown or non-public category are refused;
 * - the public side (get_public_vs_board, get_public_vs_problem, vs_post_public_comment,
 *   get_vs_linked_context) shows a ticket only when it is on the board (vsOnBoard).
 * Refusals raise P0001 with a reason (refusals.ts); a cap or vocabulary overflow is the table's CHECK (23514).
 */
import { callerUid, type Caller } from '../../../../engine/model/caller.ts';
import type { Prediction } from '../../../../engine/model/engine.ts';
import type { ExecuteGrantee, FunctionModel } from '../../../../engine/model/function-model.ts';
import { currentUserIsStaff, currentUserRole } from '../identity.ts';
import type { Json, Row } from '../../../../engine/model/json.ts';
import { allowed, orAlso, secureReading, sqlError, type Outcome } from '../../../../engine/model/outcome.ts';
import { NOT_FOUND_SETTING, nonHandlerRefusal, notFoundAnswer, notFoundRefusal, refusal } from '../refusals.ts';
import { storableDepartment, type ModelSettings, type NON_HANDLER_REFUSING_FUNCTIONS } from '../settings.ts';
import { secureRefusalsOf, type RuleContext } from '../../../../engine/model/table-model.ts';
import { isVsHandler, vsCanDelete, vsInScope } from '../tables/vs-access.ts';
import { vsCategoryPublic } from '../tables/vs-categories.ts';
import { commentsAsCompared, PUBLIC_COMMENTS_AS_COMPARED, idBearingRemarks, isSubmitterVisibleRemark, remarksAsCompared, handlesAsCompared, isPublicRefOf, vsPublicRef, vsTicketsTable } from '../tables/vs-tickets.ts';
import { rowsOf, withRows, type World } from '../../../../engine/model/world.ts';
import { notDeleted } from '../soft-delete.ts';
import { take } from '../branches.ts';
import { unrecorded } from '../../../../engine/model/branches.ts';
import { idAsKept } from '../../../../engine/model/target-ids.ts';

const ANYONE: readonly ExecuteGrantee[] = ['anon', 'authenticated', 'service_role'];
const SIGNED_IN: readonly ExecuteGrantee[] = ['authenticated', 'service_role'];
/** The secure reading of a refusal the spec orders not before another that also applies (each reads only the caller's own ticket and arguments). */
export const REFUSAL_ORDER_OPEN = 'vs.refusal-order-open';
/** What soft_delete_vs_ticket stores (now()); only its null-ness is compared. */
export const DELETED_NOW = '<now>';

const ctxOf = (world: World, caller: Caller, settings: ModelSettings): RuleContext => ({ world, caller, uid: callerUid(caller), settings });
const tickets = (world: World) => rowsOf(world, 'vs_tickets');
const text = (v: Json | undefined): string | null => (typeof v === 'string' ? v : null);
/** Trims the characters of settings.blankCharacters from both ends (the reference's btrim(): spaces only). */
export function trimBlank(s: string, settings: ModelSettings): string {
  const chars = new Set(settings.blankCharacters);
  let start = 0;
  let end = s.length;
  while (start < end && chars.has(s[start])) start++;
  while (end > start && chars.has(s[end - 1])) end--;
  return s.slice(start, end);
}
/**
 * How a text argument reads against settings.blankCharacters: not text (null, absent), blank,
 * whitespace the setting does not trim (a tab, \r\n: not blank here, blank to a trim of all
 * whitespace), or text. Its model branches name the first three.
 */
function blankness(v: Json | undefined, settings: ModelSettings): 'missing' | 'blank' | 'whitespace' | 'text' {
  if (typeof v !== 'string') return 'missing';
  if (trimBlank(v, settings) === '') return 'blank';
  return v.trim() === '' ? 'whitespace' : 'text';
}
const blank = (v: Json | undefined, settings: ModelSettings) => ['missing', 'blank'].includes(blankness(v, settings));
/** Rule 13: a text that equals or contains the student's (non-blank) raw report publishes it verbatim. */
export function repeatsReport(v: Json | undefined, report: Json | undefined, settings: ModelSettings): boolean {
  if (typeof report !== 'string' || typeof v !== 'string') return false;
  const core = trimBlank(report, settings);
  const repeats = core !== '' && v.includes(core);
  if (repeats) take(v.includes(report) ? 'R13.echo.verbatim' : 'R13.echo.trimmed');
  return repeats;
}


/** Rule 13: on the public board (rules 8: an unknown category is hidden). */
export function vsOnBoard(world: World, t: Row, settings: ModelSettings): boolean {
  if (!notDeleted(t)) return false;
  if (t.is_public !== true) return take('R13.board.not-public'), false;
  const title = blankness(t.public_title, settings);
  if (title === 'missing' || title === 'blank') return take(`R13.board.title-${title}`), false;
  if (!vsCategoryPublic(world, t.category)) return take('R13.board.category-hidden'), false;
  take('R13.board.shown');
  return true;
}

/** Rule 12: the submitter-facing allow-list of get_vs_ticket_by_id. */
export function submitterView(t: Row): Row {
  return {
    id: t.id,
    submitter_label: t.submitter_label,
    target_dept: t.target_dept,
    status: t.status,
    category: t.category,
    is_public: t.is_public,
    public_title: t.public_title,
    duplicate_of: null,
    is_duplicate: (t.duplicate_of ?? null) !== null,
    tags: [],
    remarks: (Array.isArray(t.remarks) ? t.remarks : []).filter(isSubmitterVisibleRemark),
    report: t.report,
    updated_at: t.updated_at ?? null,
  };
}

function replaceTicket(world: World, id: Json, next: (t: Row) => Row): World {
  return withRows(world, 'vs_tickets', tickets(world).map((t) => (t.id === id ? next(t) : t)));
}

const rowsOut = (world: World, rows: Row[]): Prediction => ({ outcome: allowed(rows, rows.length), world });
const done = (world: World): Prediction => ({ outcome: allowed(null, 1), world });
const fail = (world: World, outcome: Outcome): Prediction => ({ outcome, world });
/** Decides whether a merge into a primary that is itself a duplicate answers or refuses. */
const MERGE_INTO_DUPLICATE_SETTING = 'vs.mergeIntoDuplicate';
/** Decides whether vs_set_public(p_public => null) is refused or unpublishes. */
const NULL_PUBLIC_SETTING = 'vs.nullPublic';
/** Decides what a caller who handles nothing gets from find_similar_vs_tickets. */
const SIMILAR_FOR_NON_HANDLER_SETTING = 'vs.similarForNonHandler, vs.similarForUnhandledTicket';
/** Decide which tickets find_similar_vs_tickets lists. */
const SIMILAR_ROWS_SETTINGS = 'vs.similarUncategorized, vs.similarDuplicates';

/**
 * A VS handler's function called by someone who is not one (rule 9): not authorized, or for `fn`
 * a caller with a role refused as settings.refusals.nonHandlerAs says (a null role fails closed, §7).
 */
const notHandler = (world: World, settings: ModelSettings, ctx?: RuleContext, fn?: (typeof NON_HANDLER_REFUSING_FUNCTIONS)[number]): Prediction => (
  take('R09.caller.not-handler'), fail(world, fn && ctx && currentUserRole(ctx) !== null ? nonHandlerRefusal(settings, fn) : refusal(settings, 'not-authorized'))
);

/**
 * Rule 13's "a headline written by staff": a schema letting only staff handlers publish refuses a
 * handler who is not staff (a permission holder), as securely as the model's any-handler reading.
 */
function orRefusedIfNotStaff(ctx: RuleContext, p: Prediction): Prediction {
  // A non-handler is refused so already, unless refused as not finding the ticket (refusals.nonHandlerAs): a staff gate before that is as secure.
  if (currentUserIsStaff(ctx) || (!isVsHandler(ctx) && ctx.settings.refusals.nonHandlerAs.vs_set_public !== 'not-found')) return p;
  const notStaff = secureReading('vs.set-public-staff-only', refusal(ctx.settings, 'not-authorized'));
  return { ...p, outcome: p.outcome.kind === 'allowed' ? { ...p.outcome, orElse: [...(p.outcome.orElse ?? []), notStaff] } : orAlso(p.outcome, [notStaff]) };
}

/**
 * A refusal reading only the call's own arguments (a self-merge, a blank destination), which the
 * spec orders not before the caller's or the ticket's: answered first, it tells nothing of any row
 * and changes none (stranger-app-13 checks its arguments before NOT_AUTHORIZED). `p` as predicted,
 * with that refusal its named secure reading.
 */
function orArgumentCheckedFirst(p: Prediction, argumentRefusal: Outcome | undefined): Prediction {
  return argumentRefusal && p.outcome.kind !== 'allowed' ? { ...p, outcome: orAlso(p.outcome, [secureReading(REFUSAL_ORDER_OPEN, argumentRefusal)]) } : p;
}

/** A ticket the caller handles: exists, not deleted, in scope (rule 9). */
function handled(ctx: RuleContext, id: Json | undefined): Row | undefined {
  return tickets(ctx.world).find((t) => t.id === text(id) && notDeleted(t) && vsInScope(ctx, t.target_dept));
}

function capViolation(settings: ModelSettings, t: Row): Outcome | undefined {
  if (!storableDepartment(settings, t.target_dept)) return sqlError('23514', `vs_tickets.target_dept check (model.departmentList: ${settings.departmentList})`);
  // The cap enforced by a CHECK (the reference) or by a trigger or the function itself: either answer.
  if (!Array.isArray(t.remarks) || t.remarks.length > settings.vs.remarksCap) return orAlso(sqlError('23514', 'remarks cap'), [refusal(settings, 'remarks-cap')]);
  if (!Array.isArray(t.public_comments) || t.public_comments.length > settings.vs.publicCommentsCap) return sqlError('23514', 'public_comments cap');
  return undefined;
}

function fn(name: string, args: string[], executableBy: readonly ExecuteGrantee[], predict: FunctionModel['predict'], serverAssigned?: string[], comparedAs?: FunctionModel['comparedAs']): FunctionModel {
  return { name, args, executableBy, predict, ...(serverAssigned ? { serverAssigned } : {}), ...(comparedAs ? { comparedAs } : {}) };
}

/** A function answering nothing (RETURNS void; its predictions end in `done`). */
const voidFn = (...a: Parameters<typeof fn>): FunctionModel => ({ ...fn(...a), answersVoid: true });

const scalar = (name: string, args: string[], answer: (ctx: RuleContext, a: Record<string, Json>) => boolean): FunctionModel =>
  fn(name, args, ANYONE, (world, caller, a, settings) => ({ outcome: allowed([{ value: answer(ctxOf(world, caller, settings), a) }], 1), world }));

/** Functions whose answers carry the public handle, decided by settings.vs.publicHandle. */
const PUBLIC_HANDLE_ANSWERS = ['get_public_vs_board', 'get_public_vs_problem', 'get_vs_linked_context'];

const vsFunctionList: FunctionModel[] = [
  // Policy helpers about the caller (rule 17).
  scalar('current_user_is_vs_handler', [], (ctx) => isVsHandler(ctx)),
  scalar('vs_in_scope', ['p_dept'], (ctx, a) => vsInScope(ctx, text(a.p_dept))),
  scalar('vs_can_delete', ['p_dept'], (ctx, a) => vsCanDelete(ctx, text(a.p_dept))),

  fn(
    'get_vs_ticket_by_id',
    ['p_id'],
    ANYONE,
    (world, _caller, a) => rowsOut(world, tickets(world).filter((t) => t.id === text(a.p_id) && notDeleted(t)).map(submitterView)),
    ['updated_at'],
    remarksAsCompared,
  ),

  {
    ...fn('soft_delete_vs_ticket', ['p_id'], SIGNED_IN, (world, caller, a, settings) => {
      const ctx = ctxOf(world, caller, settings);
      if (currentUserRole(ctx) === null || !currentUserIsStaff(ctx)) return take('R07.vs-delete.not-authorized'), fail(world, refusal(settings, 'not-authorized'));
      const t = tickets(world).find((r) => r.id === text(a.p_id) && notDeleted(r) && vsCanDelete(ctx, r.target_dept));
      take(t ? 'R07.vs-delete.deleted' : 'R07.vs-delete.not-found');
      if (!t) return { outcome: notFoundAnswer(settings, 'soft_delete_vs_ticket', 'soft delete: ticket not found'), world };
      return { outcome: allowed([{ value: true }], 1), world: replaceTicket(world, t.id, (r) => ({ ...r, deleted_at: DELETED_NOW })) };
    }),
    outcomeSetting: NOT_FOUND_SETTING,
  },

  {
    ...fn('find_similar_vs_tickets', ['p_id'], SIGNED_IN, (world, caller, a, settings) => {
    const ctx = ctxOf(world, caller, settings);
    if (!isVsHandler(ctx)) {
      // A caller with a role who handles nothing: refused, or answered no similar ticket (a read
      // scoped to what they handle), as vs.similarForNonHandler says. A null role is refused (§7: fails closed).
      const refused = notHandler(world, settings);
      return currentUserRole(ctx) === null || settings.vs.similarForNonHandler === 'refused' ? refused : { ...refused, outcome: allowed([], 0) };
    }
    const src = handled(ctx, a.p_id);
    // A ticket they do not handle: no similar ticket, or refused as vs.similarForUnhandledTicket says (missing ones alike).
    if (!src && settings.vs.similarForUnhandledTicket === 'refused') return take('R09.similar.none'), fail(world, refusal(settings, 'not-authorized'));
    const none = !src || (src.category === null && settings.vs.similarUncategorized === 'none');
    take(none ? 'R09.similar.none' : 'R09.similar.listed');
    if (none) return rowsOut(world, []);
    const similar = tickets(world).filter(
      (t) => t.category === src.category && t.id !== src.id && notDeleted(t) && vsInScope(ctx, t.target_dept) && (settings.vs.similarDuplicates === 'listed' || t.duplicate_of === null),
    );
    return rowsOut(
      world,
      similar.map((t) => ({ id: t.id, target_dept: t.target_dept, status: t.status, category: t.category, duplicate_of: t.duplicate_of, is_duplicate: t.duplicate_of !== null })),
    );
  }),
    outcomeSetting: SIMILAR_FOR_NON_HANDLER_SETTING,
    valueSettings: { id: SIMILAR_ROWS_SETTINGS },
  },

  {
    ...voidFn('merge_vs_tickets', ['p_duplicate', 'p_primary'], SIGNED_IN, (world, caller, a, settings) => {
      const ctx = ctxOf(world, caller, settings);
      // The same id twice (SQL's `=`: never a null) is refused whoever asks and whatever the tickets.
      const selfMerge = text(a.p_duplicate) !== null && a.p_duplicate === a.p_primary ? refusal(settings, 'self-merge', 'merge: a ticket cannot be merged into itself') : undefined;
      if (!isVsHandler(ctx)) return orArgumentCheckedFirst(notHandler(world, settings, ctx, 'merge_vs_tickets'), selfMerge);
      const d = handled(ctx, a.p_duplicate);
      const p = d && handled(ctx, a.p_primary);
      if (!d || !p) return take('R09.merge.not-found'), orArgumentCheckedFirst(fail(world, notFoundRefusal(settings, 'merge_vs_tickets', 'merge: ticket not found')), selfMerge);
      if (d.id === p.id) return take('R09.merge.self'), fail(world, refusal(settings, 'self-merge', 'merge: a ticket cannot be merged into itself'));
      if (d.target_dept !== p.target_dept) return take('R09.merge.cross-department'), fail(world, refusal(settings, 'cross-department', 'merge: cross-department merge'));
      if (p.duplicate_of !== null) take('R09.merge.primary-duplicate');
      if (p.duplicate_of !== null && settings.vs.mergeIntoDuplicate === 'refused') return fail(world, refusal(settings, 'already-duplicate', 'merge: the primary is itself a duplicate'));
      take('R09.merge.done');
      const next: Row = {
        ...d,
        duplicate_of: p.id,
        status: settings.vs.mergedStatus,
        remarks: [
          ...(d.remarks as Json[]),
          { vis: settings.vs.mergeNoteVis, by: settings.vs.mergeNoteAuthor, internal: true, text: `merged into ${idAsKept(settings.vs.mergeNoteIdAs, String(p.id))}` },
          { vis: 'ticket', by: settings.vs.autoCloseAuthor, internal: false, text: settings.vs.autoCloseRemark },
        ],
      };
      const violation = capViolation(settings, next);
      if (violation) return fail(world, violation);
      return done(replaceTicket(world, d.id, () => next));
    }),
    outcomeSetting: MERGE_INTO_DUPLICATE_SETTING,
  },

  voidFn('vs_transfer_dept', ['p_id', 'p_dept', 'p_remarks'], SIGNED_IN, (world, caller, a, settings) => {
    const ctx = ctxOf(world, caller, settings);
    const argumentRefusal = blank(a.p_dept, settings)
      ? refusal(settings, 'destination-required', 'transfer: a destination department is required')
      : a.p_remarks !== undefined && a.p_remarks !== null && !Array.isArray(a.p_remarks)
        ? refusal(settings, 'argument-required', 'transfer: p_remarks must be an array')
        : undefined;
    if (!isVsHandler(ctx)) return orArgumentCheckedFirst(notHandler(world, settings, ctx, 'vs_transfer_dept'), argumentRefusal);
    const t = handled(ctx, a.p_id);
    // The spec orders no check of the arguments before the lookup: a ticket the caller handles none
    // of may be looked up first (its not-found tells only of the caller's own scope).
    const orLookedUpFirst = (refused: Outcome) => (t ? refused : orAlso(refused, [secureReading(REFUSAL_ORDER_OPEN, notFoundRefusal(settings, 'vs_transfer_dept', 'transfer: ticket not found'))]));
    take(`R08.transfer.destination-${blankness(a.p_dept, settings)}`);
    if (argumentRefusal) return fail(world, orLookedUpFirst(argumentRefusal));
    const remarks = (a.p_remarks ?? []) as Json[];
    const timeline = idBearingRemarks(settings, a.p_id, world, remarks, 'transfer');
    if ('reject' in timeline) return fail(world, orLookedUpFirst(timeline.reject));
    take(t ? 'R06.transfer.done' : 'R06.transfer.not-found');
    if (!t) return fail(world, notFoundRefusal(settings, 'vs_transfer_dept', 'transfer: ticket not found'));
    const next: Row = { ...t, target_dept: a.p_dept as string, remarks: [...(t.remarks as Json[]), ...timeline.entries] };
    const violation = capViolation(settings, next);
    if (violation) return fail(world, violation);
    // The function's write fires the table's guard (the reference's trusts it): one checking every
    // writer's entries refuses what it would refuse a handler's PATCH, as securely. Its rules for a
    // handler in scope raise nothing the checks above did not; its branches are a PATCH's, not this call's.
    const byGuard = secureRefusalsOf(unrecorded(() => vsTicketsTable.beforeUpdate!(t, next, ctx)));
    const secure = [...(timeline.refusalIsSecure ? [timeline.refusalIsSecure] : []), ...byGuard];
    if (secure.length) return { outcome: { ...allowed(null, 1), orElse: secure }, world: replaceTicket(world, t.id, () => next) };
    return done(replaceTicket(world, t.id, () => next));
  }),

  {
    ...voidFn('vs_set_public', ['p_id', 'p_public', 'p_title'], SIGNED_IN, (world, caller, a, settings) => {
    const ctx = ctxOf(world, caller, settings);
    return orRefusedIfNotStaff(ctx, (() => {
    if (!isVsHandler(ctx)) return notHandler(world, settings, ctx, 'vs_set_public');
    const nullUnpublishes = a.p_public === null && settings.vs.nullPublic === 'unpublish';
    if (typeof a.p_public !== 'boolean' && !nullUnpublishes) return fail(world, refusal(settings, 'argument-required', 'publish: p_public is required'));
    const t = handled(ctx, a.p_id);
    if (!t) return take('R13.publish.not-found'), fail(world, notFoundRefusal(settings, 'vs_set_public', 'publish: ticket not found'));
    if (a.p_public !== true) return take('R13.publish.unpublished'), done(replaceTicket(world, t.id, (r) => ({ ...r, is_public: false, ...(settings.vs.unpublishedTitle === 'cleared' ? { public_title: null } : {}) })));
    const headline = blankness(a.p_title, settings);
    if (headline !== 'text') take(`R13.publish.headline-${headline}`);
    // Every refusal that applies, the first expected and any other accepted: the spec orders none,
    // and each reads only the caller's own ticket and arguments.
    const refusals = [
      ...(blank(a.p_title, settings) ? [refusal(settings, 'headline-required', 'publish: a headline written by staff is required')] : []),
      ...(!vsCategoryPublic(world, t.category) ? (take('R13.publish.category-not-public'), [refusal(settings, 'category-not-public', 'publish: the category is not public')]) : []),
      ...(!blank(a.p_title, settings) && repeatsReport(a.p_title, t.report, settings) ? [refusal(settings, 'repeats-report', 'publish: the headline repeats the report')] : []),
    ];
    if (refusals.length) return fail(world, orAlso(refusals[0], refusals.slice(1).map((o) => secureReading(REFUSAL_ORDER_OPEN, o))));
    take('R13.publish.done');
    const title = settings.vs.publishedTitle === 'trimmed' ? trimBlank(a.p_title as string, settings) : (a.p_title as string);
    return done(replaceTicket(world, t.id, (r) => ({ ...r, is_public: true, public_title: title })));
  })());
  }),
    outcomeSetting: NULL_PUBLIC_SETTING,
  },

  voidFn('vs_post_public_comment', ['p_ref', 'p_body'], SIGNED_IN, (world, caller, a, settings) => {
    const ctx = ctxOf(world, caller, settings);
    if (currentUserRole(ctx) === null) return fail(world, refusal(settings, 'not-authorized'));
    const t = tickets(world).find((r) => (settings.vs.publicCommentKey === 'ticket-id' ? r.id === text(a.p_ref) : isPublicRefOf(r, a.p_ref, settings)) && vsOnBoard(world, r, settings));
    // Staff handlers only (settings.vs.publicCommenters): who comments is checked with the ticket, before the words.
    if (settings.vs.publicCommenters === 'staff-handlers') {
      if (!t) return take('R13.comment.not-found'), fail(world, notFoundRefusal(settings, 'vs_post_public_comment', 'comment: problem not found'));
      if (!currentUserIsStaff(ctx) || !vsInScope(ctx, t.target_dept)) return fail(world, refusal(settings, 'not-authorized'));
    }
    // A blank comment on a problem not found: the spec orders the two refusals not, and the board's problems are public.
    if (blank(a.p_body, settings)) {
      const bodyRequired = refusal(settings, 'argument-required', 'comment: a body is required');
      return take('R13.comment.body-blank'), fail(world, t ? bodyRequired : orAlso(bodyRequired, [secureReading(REFUSAL_ORDER_OPEN, notFoundRefusal(settings, 'vs_post_public_comment', 'comment: problem not found'))]));
    }
    if (t && repeatsReport(a.p_body, t.report, settings)) return fail(world, refusal(settings, 'repeats-report', 'comment: the comment repeats the report'));
    if (!t) return take('R13.comment.not-found'), fail(world, notFoundRefusal(settings, 'vs_post_public_comment', 'comment: problem not found'));
    take('R13.comment.posted');
    const next: Row = { ...t, public_comments: [...(t.public_comments as Json[]), { by: isVsHandler(ctx) ? 'staff' : 'member', body: a.p_body as string }] };
    const violation = capViolation(settings, next);
    if (violation) return fail(world, violation);
    return done(replaceTicket(world, t.id, () => next));
  }),

  fn('get_public_vs_board', [], ANYONE, (world, _caller, _a, settings) =>
    rowsOut(
      world,
      tickets(world)
        .filter((t) => vsOnBoard(world, t, settings))
        .map((t) => ({ public_ref: vsPublicRef(t.id, settings), public_title: t.public_title, category: t.category, status: t.status, target_dept: t.target_dept })),
    ),
  ),

  {
    ...fn('get_public_vs_problem', ['p_ref'], ANYONE, (world, _caller, a, settings) =>
      rowsOut(
        world,
        tickets(world)
          .filter((t) => isPublicRefOf(t, a.p_ref, settings) && vsOnBoard(world, t, settings))
          .map((t) => ({ public_ref: vsPublicRef(t.id, settings), public_title: t.public_title, category: t.category, status: t.status, target_dept: t.target_dept, comments: t.public_comments })),
      ),
    ),
    comparedAs: (rows) => rows.map((r) => ('comments' in r ? { ...r, comments: commentsAsCompared(r.comments) } : r)),
    comparedAsReading: { name: PUBLIC_COMMENTS_AS_COMPARED, strictly: (rows) => rows },
  },

  fn('get_vs_linked_context', ['p_id'], ANYONE, (world, _caller, a, settings) => {
    const d = tickets(world).find((t) => t.id === text(a.p_id) && notDeleted(t));
    const p = d && d.duplicate_of !== null ? tickets(world).find((t) => t.id === d.duplicate_of) : undefined;
    return rowsOut(world, p && vsOnBoard(world, p, settings) ? [{ public_ref: vsPublicRef(p.id, settings), public_title: p.public_title, status: p.status }] : []);
  }),
];

// Handles compared alike in comparedAs and in its strict form: a step agreeing only by a target-drawn handle is no public-comments reading.
const withHandlesAsCompared = (as: ((rows: Row[], world: World, settings: ModelSettings) => Row[]) | undefined) => (rows: Row[], world: World, settings: ModelSettings) => handlesAsCompared(as ? as(rows, world, settings) : rows, world, settings);

/** Functions answering rows of vs_tickets in its column names (FunctionModel.rowsOf): a project reads them through its mapping of the table. */
const TICKET_ROW_ANSWERS = ['get_vs_ticket_by_id', 'find_similar_vs_tickets', ...PUBLIC_HANDLE_ANSWERS];

export const vsFunctions: FunctionModel[] = vsFunctionList.map(withTicketRows).map((f) =>
  PUBLIC_HANDLE_ANSWERS.includes(f.name)
    ? {
        ...f,
        valueSettings: { public_ref: 'vs.publicHandle' },
        comparedAs: withHandlesAsCompared(f.comparedAs),
        ...(f.comparedAsReading ? { comparedAsReading: { ...f.comparedAsReading, strictly: withHandlesAsCompared(f.comparedAsReading.strictly) } } : {}),
      }
    : f,
);

function withTicketRows(f: FunctionModel): FunctionModel {
  return TICKET_ROW_ANSWERS.includes(f.name) ? { ...f, rowsOf: 'vs_tickets' } : f;
}

export const vsPrivateFunctions = [
  'private.guard_vs_tickets_update',
  'private.vs_submitter_remarks',
  'private.vs_remarks_leak_id',
  'private.vs_category_public',
  'private.vs_on_board',
  'private.vs_repeats_report',
].map((name) => ({ name, executableBy: [] as const }));
