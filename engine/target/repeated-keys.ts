/**
 * World rows that repeat an earlier row's key under one of the target's unique indexes (a team
 * seat's `primary key (node_id, user_id)`, a `unique (node_id, kkumail)`, a `unique (kkumail)` the
 * model does not have): the target cannot hold both, and every such world was dropped (stranger-app-2,
 * -3, -5, -6: a member drawn twice on one node). The later row is left out of the world instead,
 * and the model predicts the world the target holds: the case keeps its other rows and its steps.
 * World rows only (a step's insert that repeats a key is the model's to judge), and never a
 * person's rows (`users`, `auth.users`: who exists, and with what role, is the case's to say; such
 * a world is still dropped, named). A row another one names through a foreign key, left out so,
 * drops its case as today (realizable.ts). Pure.
 */
import type { World } from '../model/world.ts';
import type { TableShapes } from '../introspection/table-shapes.ts';
import { rowToTarget, targetTable, type TargetMapping } from '../mapping/mapping.ts';
import { rowsRepeatingAKey } from './realizable.ts';
import { rowsRepeatingTheTenant, tenantColumnOf, worldInCallerTenant, type Tenant } from './tenant-world.ts';

/** The model tables whose rows are people: left as drawn. */
const PEOPLE = new Set(['users', 'auth.users']);

/**
 * `world` (model names) without the rows repeating an earlier row's unique key on the target; the
 * same world when none does. `tenant`: the rows are all the caller's tenant's (tenant-world.ts), so
 * a key holding the tenant column is compared with it filled.
 */
export function repeatedKeysLeftOut(world: World, shapes: TableShapes, mapping?: TargetMapping, tenant?: Tenant): World {
  let out: World | undefined;
  for (const [table, rows] of Object.entries(world)) {
    if (rows.length < 2 || PEOPLE.has(table)) continue;
    const targetName = mapping ? targetTable(mapping, table) : table;
    const columns = shapes.get(targetName);
    // A table keyed by its tenant (a settings row per workspace) holds one row of the caller's tenant.
    const tenantKeyed = tenant !== undefined && tenantColumnOf(columns, tenant)?.unique === true;
    if (!tenantKeyed && !columns?.some((c) => c.uniqueIndexes?.length || c.uniqueTogether?.length)) continue;
    const onTarget = mapping ? rows.map((r) => rowToTarget(mapping, table, r)) : rows;
    const inTenant = tenant ? (worldInCallerTenant({ [targetName]: onTarget }, shapes, tenant)[targetName] ?? onTarget) : onTarget;
    const repeated = rowsRepeatingAKey(inTenant, columns!);
    if (tenantKeyed) for (const i of rowsRepeatingTheTenant(inTenant, tenant)) repeated.add(i);
    if (repeated.size) out = { ...(out ?? world), [table]: rows.filter((_, i) => !repeated.has(i)) };
  }
  return out ?? world;
}
