/**
 * R04 — rule 4, shop_orders: a buyer updates their own order only while its status is in the
 * buyer's window (pending, review, slip_mismatch) and only to a window status (never paid); they
 * may not change total, subtotal, fee, admin_note or timeline (nor any other column outside the
 * allow-list), but can still attach or remove payment slips and complete their order details.
 * Cases: buyers (mostly plain users; sometimes handlers, null roles, no users row), their orders
 * in every status, and a PATCH of one order biased to rule 4's columns — by its buyer mostly,
 * else by anyone.
 */
import fc from 'fast-check';
import type { ModelSettings } from '../../model/settings.ts';
import { callerAmong, callerOf } from '../../generators/identities.ts';
import { cast } from '../../generators/pr.ts';
import { shopOrders, shopPatch } from '../../generators/shop.ts';
import { peopleWorld } from '../../generators/identities.ts';
import type { DataCase } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import { withReadBack } from '../../generators/read-back.ts';
import { callerId, clause, patchOf, readClause, targetRow } from '../clauses.ts';
import type { Row } from '../../../../engine/model/json.ts';
import { rolesByMeaning, firstOf } from '../../generators/roles.ts';

function shopBuyerCases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  const roles = rolesByMeaning(settings);
  return cast(settings, [...roles.plain, ...roles.plain, ...firstOf(roles.onBehalf), ...settings.shop.handlerRoles]).chain((list) =>
    shopOrders(settings, list).chain((orders) =>
      fc.constantFrom(...orders).chain((order) => {
        const buyer = list.find((p) => p.id === order.buyer_id)!;
        const caller = fc.oneof(
          { weight: 6, arbitrary: fc.constant(callerOf(buyer)) },
          { weight: 2, arbitrary: callerAmong(list) },
        );
        return fc
          // single: supabase-js `.update(patch).eq('id', id).select().single()` (one object, or 406 and rolled back).
          .record({ caller, patch: shopPatch(settings, list, order), returning: fc.constantFrom('representation' as const, 'minimal' as const, 'headers-only' as const), single: fc.constantFrom(false, false, true) })
          .map(({ caller: c, patch, returning, single }): DataCase => ({
            world: { ...peopleWorld(list), shop_orders: orders },
            steps: [{ caller: c, request: { kind: 'update', table: 'shop_orders', patch, filters: [{ column: 'id', op: 'eq', value: order.id }], returning, ...(single ? { single } : {}) } }],
          }));
      }),
    ),
  );
}

const CLAUSES = [
  ...(
    [
      ['R04.slips', 'a buyer attaching or removing payment slips', (p: Row) => 'payment_slips' in p],
      ['R04.paid', 'a buyer setting status to paid (handlers: allowed)', (p: Row) => p.status === 'paid'],
      ['R04.amounts', 'a buyer changing total, subtotal, fee, admin_note or timeline (handlers: allowed)', (p: Row) => ['total', 'subtotal', 'fee', 'admin_note', 'timeline'].some((c) => c in p)],
    ] as const
  ).map(([id, label, names]) => clause(id, label, (s) => targetRow(s, 'shop_orders')?.buyer_id === callerId(s) && callerId(s) !== null && names(patchOf(s)))),
  clause('R04.window', "a buyer's PATCH of their own order outside the window", (s) => {
    const order = targetRow(s, 'shop_orders');
    return order !== undefined && order.buyer_id === callerId(s) && callerId(s) !== null && !s.settings.shop.buyerEditableStatuses.includes(String(order.status));
  }),
  readClause('R04.read', 'shop_orders'),
];

export const R04: DataProperty = {
  id: 'R04',
  rule: 4,
  title: 'shop_orders: buyers edit only slips and details, only while pending/review/slip_mismatch, never to paid',
  tables: ['shop_orders'],
  cases: (settings) => withReadBack(shopBuyerCases(settings), ['shop_orders']),
  clauses: CLAUSES,
};
