/**
 * R01 — rule 1, generic over every owner-updatable table (model/tables ownerGuardedTables): an
 * owner who is not a handler or admin cannot change any column outside the allow-list; the
 * guard compares the whole row (minus the allow-list, generated columns and updated_at), so a
 * column added to the table is guarded without anyone listing it; server contexts pass.
 * Cases: people of any role (or none, or no users row), rows of every registered table generated
 * from its model, and for each table one or two PATCHes of a row by primary key naming any
 * subset of the table's columns (mostly one outside the allow-list, alone or with allowed ones)
 * — sent mostly by the row's owner when the guard applies to them (as the guard itself says),
 * else by exempt owners, handlers, admins, others, anon or the server context.
 */
import fc from 'fast-check';
import type { Caller } from '../../../../engine/model/caller.ts';
import type { Row } from '../../../../engine/model/json.ts';
import type { ModelSettings } from '../../model/settings.ts';
import type { OwnerGuard } from '../../../../engine/model/owner-guard.ts';
import type { RuleContext } from '../../../../engine/model/table-model.ts';
import type { World } from '../../../../engine/model/world.ts';
import { ownerGuardedTables, tableModels } from '../../model/tables/index.ts';
import type { Filter } from '../../../../engine/model/request.ts';
import { callerAmong, callerOf, type Person } from '../../generators/identities.ts';
import { ownerTableWorld, tablePatch } from '../../generators/patches.ts';
import { cast } from '../../generators/pr.ts';
import type { DataCase, DataStep } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import { callerId, clause, targetRow } from '../clauses.ts';

type Entry = { table: string; guard: OwnerGuard };

/** A PATCH of one row of `entry`'s table, aimed at owners the guard applies to. */
function guardStep(entry: Entry, world: World, list: Person[], settings: ModelSettings): fc.Arbitrary<DataStep> {
  const model = tableModels[entry.table];
  const rows = world[model.table] ?? [];
  // Who owns a row, and whether the guard exempts them, as the guard states it: steps aim at
  // owners the guard applies to, whatever the table's notion of owner and handler.
  const ctxOf = (p: Person): RuleContext => ({ world, caller: callerOf(p), uid: p.id, settings });
  // Asked per row twice (aiming, then the step's callers): worked out once per row.
  const ownersOf = new Map<Row, Person[]>();
  const guardedOf = new Map<Row, Person[]>();
  const owners = (row: Row) => {
    let found = ownersOf.get(row);
    if (!found) ownersOf.set(row, (found = list.filter((p) => entry.guard.isOwner(row, ctxOf(p)))));
    return found;
  };
  const guarded = (row: Row) => {
    let found = guardedOf.get(row);
    if (!found) guardedOf.set(row, (found = owners(row).filter((p) => !entry.guard.isExempt(row, ctxOf(p)))));
    return found;
  };
  const aimed = rows.filter((r) => guarded(r).length > 0);
  const target: fc.Arbitrary<Row> = rows.length
    ? fc.oneof({ weight: aimed.length ? 3 : 0, arbitrary: fc.constantFrom(...(aimed.length ? aimed : rows)) }, { weight: 1, arbitrary: fc.constantFrom(...rows) })
    : fc.constant({ [model.primaryKey[0]]: list[0].id });
  const editable = entry.guard.editable({ world, caller: { kind: 'anon' }, uid: null, settings });
  return target.chain((row) => {
    const g = guarded(row);
    const o = owners(row);
    const caller: fc.Arbitrary<Caller> = fc.oneof(
      ...(g.length ? [{ weight: 6, arbitrary: fc.constantFrom(...g).map(callerOf) }] : []),
      ...(o.length ? [{ weight: 2, arbitrary: fc.constantFrom(...o).map(callerOf) }] : []),
      { weight: 2, arbitrary: callerAmong(list) },
    );
    const filters: Filter[] = model.primaryKey.map((k) => ({ column: k, op: 'eq', value: row[k] ?? null }));
    return fc
      .record({
        caller,
        patch: tablePatch(model, { settings, ids: list.map((p) => p.id) }, row, [], editable),
        returning: fc.constantFrom('representation' as const, 'minimal' as const),
      })
      .map(({ caller: c, patch, returning }): DataStep => ({ caller: c, request: { kind: 'update', table: model.table, patch, filters, returning } }));
  });
}

/** One world holding rows of every given table; one or two PATCHes per table, in registry order. */
function cases(entries: Entry[], settings: ModelSettings): fc.Arbitrary<DataCase> {
  return cast(settings, settings.staffRoles, 4, { noRow: 1, nullRole: 1, favoured: 3, any: 2, noPermissions: 0.7 }).chain((list) =>
    fc.tuple(...entries.map((e) => ownerTableWorld(tableModels[e.table], settings, list))).chain((worlds) => {
      const world: World = Object.assign({}, ...worlds);
      return fc
        .tuple(...entries.map((e) => fc.array(guardStep(e, world, list, settings), { minLength: 1, maxLength: 2 })))
        .map((perTable): DataCase => ({ world, steps: perTable.flat() }));
    }),
  );
}

/**
 * R01 over the given owner-guarded tables. A project without some of them (no vs_tickets, say)
 * still gets rule 1 checked on the ones it has (`narrow`); none of them → not applicable.
 */
function ownerGuardProperty(entries: Entry[]): DataProperty {
  const property: DataProperty = {
    id: 'R01',
    rule: 1,
    title: 'owner guards compare the whole row minus an allow-list; server contexts pass',
    tables: entries.map((e) => e.table),
    cases: (settings) => (settings.ownerGuardCases === 'one-table' ? fc.constantFrom(...entries).chain((e) => cases([e], settings)) : cases(entries, settings)),
    clauses: entries.map((e) =>
      clause(`R01.${e.table}`, `an owner's PATCH of their own ${e.table} row (allow-list only or exempt: allowed)`, (s) => {
        const row = targetRow(s, e.table);
        return row !== undefined && callerId(s) !== null && e.guard.isOwner(row, { world: s.before, caller: s.step.caller, uid: callerId(s), settings: s.settings });
      }),
    ),
    narrow: (has) => {
      const present = entries.filter((e) => has(e.table));
      if (present.length === entries.length) return property;
      return present.length ? ownerGuardProperty(present) : undefined;
    },
  };
  return property;
}

export const R01: DataProperty = ownerGuardProperty(ownerGuardedTables);
