/**
 * shop_orders (spec §2; rules 1, 4, 5, 8): a buyer reads their own orders, shop handlers all.
 * A buyer places an order for themselves (initial status, no admin note, empty timeline);
 * handlers place any. A buyer updates their own order only while its status is in the buyer's
 * window, and only to a status in that window (never paid): left undone or refused by the policy,
 * or refused by a trigger of the project's (either is secure); the owner guard keeps everything
 * but the allow-list (slips, order details, status) to the handlers (rule 1/4).
 */
import { take } from '../branches.ts';
import { currentUserHasPermission, currentUserRole } from '../identity.ts';
import type { Json, Row } from '../../../../engine/model/json.ts';
import { secureReading } from '../../../../engine/model/outcome.ts';
import { applyOwnerGuard, type OwnerGuard } from '../../../../engine/model/owner-guard.ts';
import type { RuleContext, TableModel } from '../../../../engine/model/table-model.ts';
import { jsonEqual } from '../../../../engine/model/values.ts';
import { refusal } from '../refusals.ts';

/** A non-null role that is a shop handler role, or a non-null role holding the shop permission, where there is one (rule 8; model.shop.handlerPermission). */
export function isShopHandler(ctx: RuleContext): boolean {
  const role = currentUserRole(ctx);
  if (role === null) return false;
  const permission = ctx.settings.shop.handlerPermission;
  return ctx.settings.shop.handlerRoles.includes(role) || (permission !== null && currentUserHasPermission(ctx, permission));
}

function inBuyerWindow(status: Json | undefined, ctx: RuleContext): boolean {
  return typeof status === 'string' && ctx.settings.shop.buyerEditableStatuses.includes(status);
}

/** Rule 4: the buyer's own order in the buyer's window (a model branch for a buyer who is not a handler). */
function buyerWindow(row: Row, ctx: RuleContext, inside: 'R04.buyer.old-in-window' | 'R04.buyer.new-in-window', outside: 'R04.buyer.old-out-of-window' | 'R04.buyer.new-out-of-window'): boolean {
  if (row.buyer_id !== ctx.uid) return false;
  const within = inBuyerWindow(row.status, ctx);
  if (!isShopHandler(ctx)) take(within ? inside : outside);
  return within;
}

export const shopOrdersGuard: OwnerGuard = {
  table: 'shop_orders',
  isOwner: (row, ctx) => row.buyer_id === ctx.uid,
  isExempt: (_row, ctx) => isShopHandler(ctx),
  editable: (ctx) => [...ctx.settings.shop.ownerEditableColumns, ...ctx.settings.shop.guardExcludedColumns],
  ownersCannotUpdate: (ctx) => ctx.settings.shop.ownerEditableColumns.length === 0,
  refusal: (ctx, changed) => refusal(ctx.settings, 'privileged-column', `shop_orders: ${changed.join(', ')}`),
  branch: (decision) => take(`R01.shop_orders.${decision}`),
};

const amount = (v: Json) => typeof v === 'number' && v >= 0;

export const shopOrdersTable: TableModel = {
  table: 'shop_orders',
  columns: [
    { name: 'id', type: 'uuid', nullable: false, serverAssigned: true },
    { name: 'buyer_id', type: 'uuid', nullable: false },
    { name: 'status', type: 'text', nullable: false, default: 'pending', check: (v, s) => typeof v === 'string' && s.shop.statuses.includes(v) },
    { name: 'subtotal', type: 'integer', nullable: false, default: 0, check: amount },
    { name: 'fee', type: 'integer', nullable: false, default: 0, check: amount },
    // Added after the guard was written: guarded by default (rule 1).
    { name: 'discount', type: 'integer', nullable: false, default: 0, check: amount },
    { name: 'total', type: 'integer', nullable: false, default: 0, check: amount },
    { name: 'admin_note', type: 'text', nullable: true, default: null },
    { name: 'timeline', type: 'jsonb', nullable: false, default: [] },
    { name: 'payment_slips', type: 'text[]', nullable: false, default: [] },
    { name: 'shipping_name', type: 'text', nullable: true, default: null },
    { name: 'shipping_phone', type: 'text', nullable: true, default: null, format: 'phone' },
    { name: 'shipping_address', type: 'text', nullable: true, default: null },
    { name: 'buyer_note', type: 'text', nullable: true, default: null },
    { name: 'updated_at', type: 'timestamptz', nullable: false, serverAssigned: true },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['select', 'insert', 'update'] },
  rowSecurity: true,
  rules: {
    select: (row, ctx) => row.buyer_id === ctx.uid || isShopHandler(ctx),
    insertCheck: (row, ctx) =>
      (ctx.uid !== null &&
        row.buyer_id === ctx.uid &&
        row.status === ctx.settings.shop.initialStatus &&
        row.admin_note === null &&
        jsonEqual(row.timeline ?? null, [])) ||
      isShopHandler(ctx),
    updateUsing: (row, ctx) => buyerWindow(row, ctx, 'R04.buyer.old-in-window', 'R04.buyer.old-out-of-window') || isShopHandler(ctx),
    updateCheck: (row, ctx) => buyerWindow(row, ctx, 'R04.buyer.new-in-window', 'R04.buyer.new-out-of-window') || isShopHandler(ctx),
    // The spec says only that the buyer may not: a trigger raising for their own order outside the window is as secure.
    updateRefusableByGuard: (row, ctx) =>
      row.buyer_id === ctx.uid && ctx.uid !== null && !isShopHandler(ctx) && !inBuyerWindow(row.status, ctx) ? secureReading('shop_orders.buyer-window-guard', refusal(ctx.settings, 'buyer-window', `shop_orders: status ${String(row.status)}`)) : undefined,
  },
  beforeUpdate: (oldRow, newRow, ctx) => applyOwnerGuard(shopOrdersGuard, oldRow, newRow, ctx),
};
