/**
 * pr_tickets (spec §2; rules 1, 5, 7, 8, 14): a submitter reads and edits their own live
 * tickets, PR handlers all live ones; reads never show a deleted ticket (rule 7). Handlers and
 * on-behalf roles may file a ticket for someone else; a direct PATCH never sets deleted_at (the
 * WITH CHECK keeps it null): soft delete goes through soft_delete_pr_ticket. DELETE is not
 * granted. A submitter who is not a handler may change only the allow-listed columns (rule 1).
 */
import { take } from '../branches.ts';
import { currentUserHasPermission, currentUserRole } from '../identity.ts';
import { applyOwnerGuard, type OwnerGuard } from '../../../../engine/model/owner-guard.ts';
import type { Row } from '../../../../engine/model/json.ts';
import type { RuleContext, TableModel } from '../../../../engine/model/table-model.ts';
import { refusal } from '../refusals.ts';
import { notDeleted } from '../soft-delete.ts';

/** A non-null role that is a PR handler role, or a non-null role holding the PR permission (rule 8). */
export function isPrHandler(ctx: RuleContext): boolean {
  const role = currentUserRole(ctx);
  if (role === null) return false;
  return ctx.settings.pr.handlerRoles.includes(role) || currentUserHasPermission(ctx, ctx.settings.pr.handlerPermission);
}

function isOnBehalfFiler(ctx: RuleContext): boolean {
  const role = currentUserRole(ctx);
  return role !== null && ctx.settings.pr.onBehalfRoles.includes(role);
}


/** Rule 5: who may file a PR ticket in this row's name: its submitter, and (pr.onBehalfFiling) a PR handler or an on-behalf role. */
function filer(row: Row, ctx: RuleContext): boolean {
  const own = ctx.uid !== null && row.submitter_id === ctx.uid;
  const othersMayFile = ctx.settings.pr.onBehalfFiling === 'handlers-and-roles';
  const handler = !own && othersMayFile && isPrHandler(ctx);
  const onBehalf = !own && othersMayFile && !handler && isOnBehalfFiler(ctx);
  take(own ? 'R05.pr.own' : handler ? 'R05.pr.handler' : onBehalf ? 'R05.pr.on-behalf' : 'R05.pr.other');
  return own || handler || onBehalf;
}

export const prTicketsGuard: OwnerGuard = {
  table: 'pr_tickets',
  isOwner: (row, ctx) => row.submitter_id === ctx.uid,
  isExempt: (_row, ctx) => isPrHandler(ctx),
  editable: (ctx) => [...ctx.settings.pr.ownerEditableColumns, ...ctx.settings.pr.guardExcludedColumns],
  ownersCannotUpdate: (ctx) => ctx.settings.pr.ownerEditableColumns.length === 0,
  refusal: (ctx, changed) => refusal(ctx.settings, 'privileged-column', `pr_tickets: ${changed.join(', ')}`),
  branch: (decision) => take(`R01.pr_tickets.${decision}`),
};

export const prTicketsTable: TableModel = {
  table: 'pr_tickets',
  columns: [
    { name: 'id', type: 'text', nullable: false },
    { name: 'submitter_id', type: 'uuid', nullable: false },
    { name: 'submitter_label', type: 'text', nullable: false },
    { name: 'brief', type: 'text', nullable: false },
    { name: 'file_url', type: 'text', nullable: true, default: null },
    { name: 'status', type: 'text', nullable: false, default: 'open', check: (v, s) => typeof v === 'string' && s.pr.statuses.includes(v) },
    { name: 'handler_note', type: 'text', nullable: true, default: null },
    // Set to now() by soft_delete_pr_ticket: the model knows whether it is set, not its value.
    { name: 'deleted_at', type: 'timestamptz', nullable: true, default: null, serverAssigned: true },
    { name: 'updated_at', type: 'timestamptz', nullable: false, serverAssigned: true },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['select', 'insert', 'update'] },
  rowSecurity: true,
  rules: {
    select: (row, ctx) => notDeleted(row) && (row.submitter_id === ctx.uid || isPrHandler(ctx)),
    insertCheck: (row, ctx) =>
      notDeleted(row) &&
      row.status === ctx.settings.pr.initialStatus &&
      row.handler_note === null &&
      filer(row, ctx),
    updateUsing: (row, ctx) => notDeleted(row) && (row.submitter_id === ctx.uid || isPrHandler(ctx)),
    // The USING saw a live row: a new row that is not live is a PATCH of deleted_at (rule 7).
    updateCheck: (row, ctx) => (notDeleted(row) || (take('R07.patch.deleted-at'), false)) && (row.submitter_id === ctx.uid || isPrHandler(ctx)),
    // The predicate soft_delete_pr_ticket re-checks; DELETE itself is not granted.
    deleteUsing: (row, ctx) => notDeleted(row) && isPrHandler(ctx),
  },
  beforeUpdate: (oldRow, newRow, ctx) => applyOwnerGuard(prTicketsGuard, oldRow, newRow, ctx),
};
