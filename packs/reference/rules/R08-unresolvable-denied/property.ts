/**
 * R08 — rule 8: an unresolvable value is denied. Here: a null role (a users row whose role is
 * null, or a signed-in identity with no users row, or the server context with no auth.uid())
 * is never a handler, never staff, never exempt from an owner guard — even when it holds a
 * permission — so soft_delete_pr_ticket rejects it, owner guards apply to it, and on-behalf
 * filing is refused. Cases: people half of whom have no resolvable role, PR tickets and shop
 * orders among them, one request: a soft delete, a PATCH of an own order or ticket, an
 * insert on someone's behalf, or a read.
 * VS cases (unknown category, null destination) join through `fc.oneof` in `cases`. Each lane
 * first sends each PR and shop request once as a null role holding every permission (its sweep).
 */
import fc from 'fast-check';
import type { Row } from '../../../../engine/model/json.ts';
import type { ModelSettings } from '../../model/settings.ts';
import type { ApiRequest } from '../../../../engine/model/request.ts';
import { prTicketsTable } from '../../model/tables/pr-tickets.ts';
import { callerAmong, callerOf, type Person } from '../../generators/identities.ts';
import { columnValue, tablePatch, writableColumns } from '../../generators/patches.ts';
import { shopOrdersTable } from '../../model/tables/shop-orders.ts';
import { cast, prTicketRow, prTickets, prWorld, roleUnresolvedHolder } from '../../generators/pr.ts';
import { shopOrders, shopPatch } from '../../generators/shop.ts';
import type { DataCase } from '../../../../engine/runner/data-case.ts';
import { fromParts, type DataProperty } from '../../../../engine/runner/data-property.ts';
import { vsUnresolvableCases } from '../../cases/vs-unresolvable.ts';
import { callerId, clause, isRpc, sidedClause } from '../clauses.ts';
import { sideOf } from '../../../../engine/runner/coverage.ts';
import { rowsOf } from '../../../../engine/model/world.ts';

/** R08's PR and shop requests over a cast and its tickets and orders: each kind an arbitrary of one step. */
function prShopSteps(settings: ModelSettings, list: Person[], tickets: Row[], orders: Row[]) {
  const ids = list.map((p) => p.id);
  const vc = { settings, ids };
  const byOwner = (row: Row, owner: string) => {
    const p = list.find((x) => x.id === row[owner])!;
    return fc.oneof({ weight: 3, arbitrary: fc.constant(callerOf(p)) }, { weight: 1, arbitrary: callerAmong(list) });
  };
  const softDelete = fc.tuple(callerAmong(list), fc.constantFrom(...tickets)).map(([caller, t]) => ({ caller, request: { kind: 'rpc', fn: 'soft_delete_pr_ticket', args: { p_id: t.id } } as ApiRequest }));
  const patchOrder = fc.constantFrom(...orders).chain((o) =>
    fc.tuple(byOwner(o, 'buyer_id'), shopPatch(settings, list, o), fc.constantFrom('representation' as const, 'minimal' as const)).map(([caller, patch, returning]) => ({
      caller,
      request: { kind: 'update', table: 'shop_orders', patch, filters: [{ column: 'id', op: 'eq', value: o.id }], returning } as ApiRequest,
    })),
  );
  const patchTicket = fc.constantFrom(...tickets).chain((t) =>
    fc.tuple(byOwner(t, 'submitter_id'), tablePatch(prTicketsTable, vc, t, ['status', 'handler_note', 'submitter_id']), fc.constantFrom('representation' as const, 'minimal' as const)).map(([caller, patch, returning]) => ({
      caller,
      request: { kind: 'update', table: 'pr_tickets', patch, filters: [{ column: 'id', op: 'eq', value: t.id }], returning } as ApiRequest,
    })),
  );
  const onBehalf = fc.tuple(callerAmong(list), prTicketRow(settings, ids)).map(([caller, row]) => ({
    caller,
    request: { kind: 'insert', table: 'pr_tickets', rows: [{ ...row, status: settings.pr.initialStatus, handler_note: null, deleted_at: null }], returning: 'minimal' } as ApiRequest,
  }));
  const read = fc.tuple(callerAmong(list), fc.constantFrom('pr_tickets', 'shop_orders')).map(([caller, table]) => ({ caller, request: { kind: 'select', table, columns: '*', filters: [] } as ApiRequest }));
  return { softDelete, patchOrder, patchTicket, onBehalf, read };
}

const prShopWorld = (settings: ModelSettings, list: Person[], tickets: Row[], orders: Row[]) => ({ ...prWorld(settings, list, tickets), shop_orders: orders });

const castOfR08 = (settings: ModelSettings) => cast(settings, [], 4, { noRow: 2, nullRole: 3, favoured: 0, any: 2, noPermissions: 0.2 });

export function prShopNullRoleCases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  return castOfR08(settings).chain((list) =>
    fc.tuple(prTickets(settings, list, 3), shopOrders(settings, list, 3)).chain(([tickets, orders]) => {
      const world = prShopWorld(settings, list, tickets, orders);
      const { softDelete, patchOrder, patchTicket, onBehalf, read } = prShopSteps(settings, list, tickets, orders);
      return fc
        .oneof({ weight: 3, arbitrary: softDelete }, { weight: 3, arbitrary: patchOrder }, { weight: 2, arbitrary: patchTicket }, { weight: 1, arbitrary: onBehalf }, { weight: 2, arbitrary: read })
        .map((step): DataCase => ({ world, steps: [step] }));
    }),
  );
}

/** A PATCH of one order's column the buyer guard keeps to handlers (neither owner-editable nor excluded from the guard), alone. */
function guardedOrderPatch(settings: ModelSettings, list: Person[], orders: Row[]): fc.Arbitrary<ApiRequest> {
  const kept = [...settings.shop.ownerEditableColumns, ...settings.shop.guardExcludedColumns, ...shopOrdersTable.primaryKey, 'buyer_id'];
  const guarded = writableColumns(shopOrdersTable).filter((c) => !kept.includes(c.name));
  return fc.tuple(fc.constantFrom(...orders), fc.constantFrom(...guarded)).chain(([o, column]) =>
    columnValue(column, { settings, ids: list.map((p) => p.id) }, o).map((value): ApiRequest => ({ kind: 'update', table: 'shop_orders', patch: { [column.name]: value }, filters: [{ column: 'id', op: 'eq', value: o.id }], returning: 'minimal' })),
  );
}

/**
 * One request of `kind` (a soft delete, a PATCH of a guarded order column or of a ticket, a read
 * of a table) sent by rule 8's boundary person (roleUnresolvedHolder: every permission, a null
 * role) among the cast, the buyer of every order: the sweep of R08's PR and shop part. A fault that lets a null role through as a handler (or out of the buyer guard) shows
 * on the first such request; drawn among the cast, the holder, the permission and the request
 * met past case 200.
 */
function prShopBoundaryCases(kind: 'softDelete' | 'patchOrder' | 'patchTicket' | 'pr_tickets' | 'shop_orders') {
  return (settings: ModelSettings): fc.Arbitrary<DataCase> =>
    fc.tuple(roleUnresolvedHolder(settings), castOfR08(settings)).chain(([holder, others]) => {
      const list = [holder, ...others.filter((p) => p.id !== holder.id)];
      return fc.tuple(prTickets(settings, list, 3), shopOrders(settings, list, 3), fc.constantFrom(...settings.shop.buyerEditableStatuses)).chain(([tickets, drawn, status]) => {
        // Their own orders, open to a buyer's edit: the buyer guard is all that stands, unless the null role exempts them.
        const orders = drawn.map((o) => ({ ...o, buyer_id: holder.id, status }));
        const request =
          kind === 'patchOrder'
            ? guardedOrderPatch(settings, list, orders)
            : kind === 'pr_tickets' || kind === 'shop_orders'
              ? fc.constant<ApiRequest>({ kind: 'select', table: kind, columns: '*', filters: [] })
              : prShopSteps(settings, list, tickets, orders)[kind].map((s) => s.request);
        return request.map((r): DataCase => ({ world: prShopWorld(settings, list, tickets, orders), steps: [{ caller: callerOf(holder), request: r }] }));
      });
    });
}

export const R08: DataProperty = fromParts(
  {
    id: 'R08',
    rule: 8,
    title: 'unresolvable values (null role, unknown category, null destination) are denied',
    clauses: [
      sidedClause('R08.null-role', 'a write or function call by a signed-in caller with a null role (refused) / with a role (allowed)', (s) => {
        if (s.step.request.kind === 'select' || callerId(s) === null) return undefined;
        const role = rowsOf(s.before, 'users').find((u) => u.id === callerId(s))?.role ?? null;
        const side = sideOf(s.outcome);
        return role === null ? (side === 'refused' ? 'refused' : undefined) : side === 'allowed' ? 'allowed' : undefined;
      }),
      clause('R08.transfer', 'vs_transfer_dept (null or blank destination: refused)', (s) => isRpc(s, 'vs_transfer_dept')),
    ],
  },
  [
    { tables: ['pr_tickets', 'shop_orders'], functions: ['soft_delete_pr_ticket'], cases: prShopNullRoleCases, sweep: (['softDelete', 'patchOrder', 'patchTicket', 'pr_tickets', 'shop_orders'] as const).map(prShopBoundaryCases) },
    { tables: ['vs_tickets', 'vs_categories'], functions: ['vs_transfer_dept', 'vs_set_public', 'vs_post_public_comment', 'get_public_vs_board', 'get_public_vs_problem', 'get_vs_linked_context', 'soft_delete_vs_ticket', 'find_similar_vs_tickets', 'merge_vs_tickets'], cases: vsUnresolvableCases },
  ],
);
