/**
 * R05 — rule 5: an insert with return=representation also needs the new row to pass the SELECT
 * rule, else the whole insert fails with 42501; the same insert with return=minimal succeeds.
 * The reference has such a legitimate case: uni_staff / sa_prof file PR tickets on someone
 * else's behalf but cannot read them back (owner-only SELECT for them).
 * Cases: an insert of a PR ticket or a shop order owned by the caller or by someone else, sent
 * with both preferences in either order (representation with all columns or `select=id`), then
 * often the same row again as an upsert (supabase-js `.upsert()`, merge or ignore duplicates,
 * some columns changed: its conflict path goes through the UPDATE rules and the owner guard),
 * then read back by id by the same caller.
 */
import fc from 'fast-check';
import type { Row } from '../../../../engine/model/json.ts';
import type { ModelSettings } from '../../model/settings.ts';
import type { ApiRequest } from '../../../../engine/model/request.ts';
import { callerAmong, peopleWorld } from '../../generators/identities.ts';
import { cast, prId, prTicketRow } from '../../generators/pr.ts';
import { shopOrderRow } from '../../generators/shop.ts';
import type { Person } from '../../generators/identities.ts';
import type { DataCase } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import { withReadBack } from '../../generators/read-back.ts';
import { clause, insertsInto, readClause } from '../clauses.ts';

/** Mostly the values an insert check accepts; sometimes not. */
function prInsertRow(settings: ModelSettings, list: Person[], owner: string): fc.Arbitrary<Row> {
  return fc
    .tuple(prTicketRow(settings, list.map((p) => p.id), prId), fc.integer({ min: 0, max: 8 }))
    .map(([row, tweak]) => ({
      ...row,
      submitter_id: owner,
      status: tweak === 1 ? row.status : settings.pr.initialStatus,
      handler_note: tweak === 2 ? row.handler_note : null,
      deleted_at: tweak === 3 ? row.deleted_at : null,
    }));
}

function shopInsertRow(settings: ModelSettings, list: Person[], owner: string): fc.Arbitrary<Row> {
  return fc.tuple(shopOrderRow(settings, list), fc.integer({ min: 0, max: 8 })).map(([row, tweak]) => ({
    ...row,
    buyer_id: owner,
    status: tweak === 1 ? row.status : settings.shop.initialStatus,
    admin_note: tweak === 2 ? row.admin_note : null,
    timeline: tweak === 3 ? row.timeline : [],
  }));
}

function insertCases(settings: ModelSettings): fc.Arbitrary<DataCase> {
  return cast(settings, settings.pr.onBehalfRoles).chain((list) =>
    callerAmong(list).chain((caller) => {
      const self = caller.kind === 'user' ? caller.id : list[0].id;
      const owner = fc.oneof({ weight: 1, arbitrary: fc.constant(self) }, { weight: 3, arbitrary: fc.constantFrom(...list.map((p) => p.id)) });
      return owner.chain((o) =>
        fc
          .record({
            table: fc.oneof({ weight: 2, arbitrary: fc.constant('pr_tickets') }, { weight: 1, arbitrary: fc.constant('shop_orders') }),
            pr: prInsertRow(settings, list, o),
            shop: shopInsertRow(settings, list, o),
            representationFirst: fc.boolean(),
            // supabase-js `.insert(row).select('id')`: the answer carries the id only, and the
            // new row must still pass the SELECT rule (any RETURNING column reads it).
            selectId: fc.boolean(),
            // `.insert(row).select().single()`: one object back, or 406 and rolled back.
            single: fc.constantFrom(false, false, true),
            upsert: fc.option(
              fc.record({
                resolution: fc.constantFrom('merge-duplicates' as const, 'ignore-duplicates' as const),
                // headers-only: no body, but RETURNING reads the row as representation does.
                returning: fc.constantFrom('representation' as const, 'minimal' as const, 'headers-only' as const),
                // A column the owner may change (brief, shipping_name), one the owner guard keeps from them
                // that the insert check does not look at (submitter_label, total), or none.
                change: fc.constantFrom('none', 'allowed', 'guarded'),
              }),
              { nil: undefined, freq: 2 },
            ),
          })
          .map(({ table, pr, shop, representationFirst, selectId, single, upsert }): DataCase => {
            const row = table === 'pr_tickets' ? pr : shop;
            const insert = (returning: 'representation' | 'minimal'): ApiRequest => ({
              kind: 'insert',
              table,
              rows: [row],
              returning,
              ...(returning === 'representation' && selectId ? { columns: ['id'] } : {}),
              ...(single && returning === 'representation' ? { single } : {}),
            });
            const order = representationFirst ? (['representation', 'minimal'] as const) : (['minimal', 'representation'] as const);
            const again = (u: NonNullable<typeof upsert>): ApiRequest => {
              const changed: Row =
                u.change === 'none' ? {} : u.change === 'guarded' ? (table === 'pr_tickets' ? { submitter_label: 'Relabelled' } : { total: 999 }) : table === 'pr_tickets' ? { brief: 'changed by upsert' } : { shipping_name: 'Upserted' };
              return { kind: 'insert', table, rows: [{ ...row, ...changed }], returning: u.returning, upsert: { resolution: u.resolution }, ...(single ? { single } : {}) };
            };
            const steps = [
              ...order.map((r) => ({ caller, request: insert(r) })),
              ...(upsert ? [{ caller, request: again(upsert) }] : []),
              { caller, request: { kind: 'select' as const, table, columns: '*' as const, filters: [{ column: 'id', op: 'eq' as const, value: row.id }] } },
            ];
            return { world: peopleWorld(list), steps };
          }),
      );
    }),
  );
}

const CLAUSES = [
  clause('R05.representation', 'POST pr_tickets with return=representation', (s) => insertsInto(s, 'pr_tickets') && s.step.request.kind === 'insert' && s.step.request.returning === 'representation' && !s.step.request.upsert),
  clause('R05.minimal', 'POST pr_tickets with return=minimal', (s) => insertsInto(s, 'pr_tickets') && s.step.request.kind === 'insert' && s.step.request.returning === 'minimal' && !s.step.request.upsert),
  clause('R05.upsert', 'an upsert of a PR ticket or shop order (merge or ignore duplicates)', (s) => s.step.request.kind === 'insert' && s.step.request.upsert !== undefined),
  readClause('R05.read', 'pr_tickets'),
];

export const R05: DataProperty = {
  id: 'R05',
  rule: 5,
  title: 'insert with return=representation needs the new row to pass SELECT; return=minimal does not',
  tables: ['pr_tickets', 'shop_orders'],
  cases: (settings) => withReadBack(insertCases(settings), ['pr_tickets']),
  clauses: CLAUSES,
};
