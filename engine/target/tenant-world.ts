/**
 * A multi-tenant target (`fixtures.tenantColumn`: a `workspace_id`/`org_id`/`team_id` on most
 * tables, referencing a tenant table the model does not have, read by the policies through the
 * caller's membership): the spec's rules hold within one tenant, so a case's world lives in one
 * tenant, the caller's. Every row the fixtures write that has the tenant column names that one
 * tenant row (a person's profile too: where membership is the profile's column, that is the
 * caller's membership), a model INSERT sends it as the app's client would, and the filler never
 * spreads rows over tenants to satisfy a unique key holding the column (two profiles sharing an
 * e-mail in two workspaces hid one from the other: stranger-app-16). Pure.
 */
import type { Json, Row } from '../model/json.ts';
import type { World } from '../model/world.ts';
import type { ColumnShape, TableShapes } from '../introspection/table-shapes.ts';
import { serverMustWrite, UnfillableColumn, valueFor } from './fill-row.ts';

/** The number the caller's tenant key is made from (valueFor: a uuid, an integer, a text of it): apart from the fillers' counters (900…, 1000…). */
const CALLER_TENANT_NUMBER = 30_001;
/** The number the second tenant's key is made from (second-tenant.ts: a copy of the case's world the caller must never reach). */
const SECOND_TENANT_NUMBER = 40_001;

export interface Tenant {
  /** The tenant column (target name), as the config names it. */
  column: string;
  /** The table it references (the tenant table), and its key column. */
  table: string;
  keyColumn: string;
  /** The caller's tenant's key: the one every row of the case names. */
  key: Json;
  /** The second tenant's key: the one every row of the world's copy names (second-tenant.ts). */
  secondKey: Json;
}

const tenants = new WeakMap<TableShapes, Map<string, Tenant | undefined>>();

/** The tenant a `tenantColumn` names on this target, or undefined when no table has it as a foreign key. */
export function tenantOf(shapes: TableShapes, tenantColumn: string | undefined): Tenant | undefined {
  if (tenantColumn === undefined) return undefined;
  let byColumn = tenants.get(shapes);
  if (!byColumn) tenants.set(shapes, (byColumn = new Map()));
  if (!byColumn.has(tenantColumn)) {
    const ref = [...shapes.values()].flat().find((c) => c.name === tenantColumn && c.references)?.references;
    const keyShape = ref && shapes.get(ref.table)?.find((c) => c.name === ref.column);
    const keyOf = (n: number) => valueFor(ref!.table, { ...keyShape!, references: undefined }, n, {});
    byColumn.set(tenantColumn, ref && keyShape ? { column: tenantColumn, table: ref.table, keyColumn: ref.column, key: keyOf(CALLER_TENANT_NUMBER), secondKey: keyOf(SECOND_TENANT_NUMBER) } : undefined);
  }
  return byColumn.get(tenantColumn);
}

/** The tenant column of a table's shape: a foreign key to the tenant table under the configured name. */
export function tenantColumnOf(columns: readonly ColumnShape[] | undefined, tenant: Tenant): ColumnShape | undefined {
  return columns?.find((c) => c.name === tenant.column && c.references?.table === tenant.table);
}

/** `world` (target names) with every row of a table holding the tenant column that leaves it out naming the caller's tenant (`key`: another's, the second tenant's); the same world when none does. */
export function worldInCallerTenant(world: World, shapes: TableShapes, tenant: Tenant, key: Json = tenant.key): World {
  let out: World | undefined;
  for (const [table, rows] of Object.entries(world)) {
    if (!rows.length || !tenantColumnOf(shapes.get(table), tenant) || rows.every((r) => tenant.column in r)) continue;
    out = { ...(out ?? world), [table]: rows.map((r) => (tenant.column in r ? r : { ...r, [tenant.column]: key })) };
  }
  return out ?? world;
}

/** The positions of `rows` (one table's, target names, in the caller's tenant) whose tenant an earlier row already names: a table keyed by its tenant holds one. */
export function rowsRepeatingTheTenant(rows: readonly Row[], tenant: Tenant): number[] {
  const seen = new Set<string>();
  return rows.flatMap((r, i) => {
    const key = JSON.stringify(r[tenant.column] ?? null);
    if (!seen.has(key)) return (seen.add(key), []);
    return [i];
  });
}

/**
 * The caller's tenant row: its key, and its other NOT NULL columns without a default filled (a
 * `slug`, a `name`). One that needs a row of another table names the case's first row of it (an
 * owner: Basejump's `primary_owner_user_id default auth.uid()`, a person of the case, written
 * before the tenant); one the case has no row of cannot be made here: the case is dropped, named.
 */
export function callerTenantRow(tenant: Tenant, shapes: TableShapes, world: World = {}, second = false): Row {
  const row: Row = { [tenant.keyColumn]: second ? tenant.secondKey : tenant.key };
  let n = second ? SECOND_TENANT_NUMBER : CALLER_TENANT_NUMBER;
  for (const c of shapes.get(tenant.table) ?? []) {
    if (c.name === tenant.keyColumn || !serverMustWrite(c)) continue;
    const named = c.references && c.references.table !== tenant.table ? world[c.references.table]?.[0]?.[c.references.column] : undefined;
    if (named !== undefined && named !== null) {
      row[c.name] = named;
      continue;
    }
    if (c.references) throw new UnfillableColumn(`${tenant.table}.${c.name} references ${c.references.table}: the caller's tenant row (fixtures.tenantColumn ${tenant.column}) cannot be made before it`, tenant.table);
    row[c.name] = valueFor(tenant.table, c, ++n, {});
  }
  return row;
}

/** A model INSERT's rows into a table holding the tenant column with no default, each sending the caller's tenant where it leaves it out (the app's client sends it). */
export function insertRowsInCallerTenant(table: string, rows: Row[], shapes: TableShapes, tenant: Tenant): Row[] {
  const column = tenantColumnOf(shapes.get(table), tenant);
  if (!column || column.hasDefault || rows.every((r) => tenant.column in r)) return rows;
  return rows.map((r) => (tenant.column in r ? r : { ...r, [tenant.column]: tenant.key }));
}

/** What a failure on a multi-tenant target says of its world, as a setting (the spec is silent on tenants: this reading is the config's). */
export function tenantSettingNote(shapes: TableShapes | undefined, tenantColumn: string | undefined, secondTenant = false): string {
  const tenant = shapes && tenantOf(shapes, tenantColumn);
  if (!tenant) return '';
  const second = secondTenant ? `, and a copy in a second ${tenant.table} row ${JSON.stringify(tenant.secondKey)} the caller must never reach` : '';
  return ` (every row of the case in the caller's ${tenant.table} row${secondTenant ? ` ${JSON.stringify(tenant.key)}` : ''}${second}: setting fixtures.tenantColumn = "${tenant.column}")`;
}
