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
import type { Json, Row } from '../../../../engine/model/json.ts';
import type { ModelSettings } from '../../model/settings.ts';
import type { ApiRequest } from '../../../../engine/model/request.ts';
import { callerAmong, peopleWorld } from '../../generators/identities.ts';
import { cast, prId, prTicketRow } from '../../generators/pr.ts';
import { shopOrderRow } from '../../generators/shop.ts';
import type { Person } from '../../generators/identities.ts';
import type { DataCase } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import { withReadBack } from '../../generators/read-back.ts';
import { oneConditionBroken, type FieldCondition } from '../../generators/boundary.ts';
import { clause, insertsInto, readClause } from '../clauses.ts';

/**
 * The fields an insert check looks at: mostly every condition met but the owner, free (the caller
 * or another person), else exactly one condition broken, the owner then being the caller unless
 * it is the one broken. A drawn row's values broke several at once or none: a check that forgot
 * one showed late (a buyer's order carrying only a handler's timeline: first at case 268 of seed 1).
 */
function insertCheckFields(conditions: Record<string, FieldCondition<Json>>, owner: { column: string; id: string }): fc.Arbitrary<Row> {
  const accepted = Object.fromEntries(Object.entries(conditions).map(([column, c]) => [column, column === owner.column ? fc.constant<Json>(owner.id) : c.met]));
  return fc.oneof({ weight: 2, arbitrary: fc.record(accepted) }, { weight: 1, arbitrary: oneConditionBroken<Row>(conditions) });
}

/** The owner condition: the caller meets it; another person of the cast breaks it (unless the caller files on their behalf). */
function ownerCondition(list: Person[], self: string): FieldCondition<Json> {
  const others = list.map((p) => p.id).filter((id) => id !== self);
  return { met: fc.constant<Json>(self), ...(others.length ? { broken: fc.constantFrom<Json>(...others) } : {}) };
}

/** The status condition: the initial status meets it, every other status of the vocabulary breaks it. */
function initialStatus(statuses: readonly string[], initial: string): FieldCondition<Json> {
  const others = statuses.filter((s) => s !== initial);
  return { met: fc.constant<Json>(initial), ...(others.length ? { broken: fc.constantFrom<Json>(...others) } : {}) };
}

const isNull = (broken: Json): FieldCondition<Json> => ({ met: fc.constant<Json>(null), broken: fc.constant(broken) });

function prInsertRow(settings: ModelSettings, list: Person[], owner: string, self: string): fc.Arbitrary<Row> {
  const fields = insertCheckFields(
    { submitter_id: ownerCondition(list, self), status: initialStatus(settings.pr.statuses, settings.pr.initialStatus), handler_note: isNull('Handled by the desk.'), deleted_at: isNull('2025-01-01T00:00:00+00:00') },
    { column: 'submitter_id', id: owner },
  );
  return fc.tuple(prTicketRow(settings, list.map((p) => p.id), prId), fields).map(([row, f]) => ({ ...row, ...f }));
}

function shopInsertRow(settings: ModelSettings, list: Person[], owner: string, self: string): fc.Arbitrary<Row> {
  const fields = insertCheckFields(
    {
      buyer_id: ownerCondition(list, self),
      status: initialStatus(settings.shop.statuses, settings.shop.initialStatus),
      admin_note: isNull('Checked by the shop.'),
      timeline: { met: fc.constant<Json>([]), broken: fc.constant<Json>([{ event: 'verified', by: 'staff' }]) },
    },
    { column: 'buyer_id', id: owner },
  );
  return fc.tuple(shopOrderRow(settings, list), fields).map(([row, f]) => ({ ...row, ...f }));
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
            pr: prInsertRow(settings, list, o, self),
            shop: shopInsertRow(settings, list, o, self),
            representationFirst: fc.boolean(),
            // supabase-js `.insert(row).select('id')`: the answer carries the id only, and the
            // new row must still pass the SELECT rule (any RETURNING column reads it).
            selectId: fc.boolean(),
            // `.insert(row).select().single()`: one object back, or 406 and rolled back.
            single: fc.constantFrom(false, false, true),
            // `.insert(row, { defaultToNull: false })` / `.upsert(…)` alike: Prefer missing=default, the
            // body read over the columns' defaults (each evaluated as the caller, as PostgREST builds it).
            defaultToNull: fc.constantFrom(true, true, false),
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
          .map(({ table, pr, shop, representationFirst, selectId, single, defaultToNull, upsert }): DataCase => {
            const row = table === 'pr_tickets' ? pr : shop;
            const missing = defaultToNull ? {} : { missing: 'default' as const };
            const insert = (returning: 'representation' | 'minimal'): ApiRequest => ({
              kind: 'insert',
              table,
              rows: [row],
              returning,
              ...(returning === 'representation' && selectId ? { columns: ['id'] } : {}),
              ...(single && returning === 'representation' ? { single } : {}),
              ...missing,
            });
            const order = representationFirst ? (['representation', 'minimal'] as const) : (['minimal', 'representation'] as const);
            const again = (u: NonNullable<typeof upsert>): ApiRequest => {
              const changed: Row =
                u.change === 'none' ? {} : u.change === 'guarded' ? (table === 'pr_tickets' ? { submitter_label: 'Relabelled' } : { total: 999 }) : table === 'pr_tickets' ? { brief: 'changed by upsert' } : { shipping_name: 'Upserted' };
              return { kind: 'insert', table, rows: [{ ...row, ...changed }], returning: u.returning, upsert: { resolution: u.resolution }, ...(single ? { single } : {}), ...missing };
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
