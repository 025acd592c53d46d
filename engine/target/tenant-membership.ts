/**
 * The caller's tenant's memberships, where a multi-tenant target keeps them as rows of a table
 * outside the model (`basejump.account_user (user_id, account_id, account_role)`, `org_members
 * (org_id, user_id)`) and its policies ask it (`basejump.has_role_on_account(account_id)`): a case's
 * world lives in the caller's tenant (tenant-world.ts), so every person of the case is a member of
 * it, one row each (other NOT NULL columns filled as any row's: an enum's first label). Without
 * them the tenant policies hid every row and refused every write, each a false alarm
 * (stranger-app-18; docs/config.md `fixtures.tenantColumn` had it left open). Pure.
 */
import type { Json, Row } from '../model/json.ts';
import type { World } from '../model/world.ts';
import { membershipColumns, type TableShapes } from '../introspection/table-shapes.ts';
import type { Tenant } from './tenant-world.ts';

/** Tables keyed by a person (their key references auth.users): a membership may name one of them for a person. */
function peopleTables(shapes: TableShapes): string[] {
  return [...shapes].filter(([, columns]) => columns.some((c) => c.primaryKey && c.references?.table === 'auth.users')).map(([t]) => t);
}

/** The membership rows of the caller's tenant (or the tenant keyed `key`) for every person `world` holds (target names), by membership table outside `modelTables`; none when the target has no such table. */
export function membershipRows(world: World, shapes: TableShapes, tenant: Tenant, modelTables: ReadonlySet<string>, key: Json = tenant.key): World {
  const out: World = {};
  const people = peopleTables(shapes);
  for (const [table, columns] of shapes) {
    if (modelTables.has(table) || table === tenant.table) continue;
    const member = membershipColumns(columns, tenant.table, people);
    if (!member || member.group.references!.column !== tenant.keyColumn) continue;
    const ref = member.person.references!;
    const rows = (world[ref.table] ?? []).flatMap((person): Row[] => {
      const id = person[ref.column];
      return id === undefined || id === null ? [] : [{ [member.group.name]: key, [member.person.name]: id }];
    });
    if (rows.length) out[table] = rows;
  }
  return out;
}
