/**
 * The tenant column of a multi-tenant target, as `policyfuzz init` recognises it: one column name
 * (`workspace_id`, `org_id`, `team_id`) on most of the target's tables (or on their parents), each a foreign key to one
 * table that holds no people (the tenant table: `workspaces`), read by a function of the target
 * (the membership helper the policies call: `current_workspace_id()`, `is_org_member(org_id)`).
 * The spec's rules hold within one tenant: the config names it (`fixtures.tenantColumn`), a case's
 * world lives in the caller's tenant (engine/target/tenant-world.ts), and no model column is ever
 * paired with it (stranger-app-16's `project_settings.key` took `workspace_id`). Pure.
 */
import type { TargetFacts, TargetTableFacts } from './target-facts-shape.ts';

export interface TenantColumn {
  column: string;
  /** The tenant table it references. */
  table: string;
  /** The tables holding it, of the target's tables besides the tenant table. */
  holders: number;
  of: number;
}

/** At least this many tables hold the column: a tenant is every table's, not a pair's. */
const FEWEST_HOLDERS = 3;

/** A table keyed by a person (its key references auth.users): a profile, never a tenant. */
function holdsPeople(table: TargetTableFacts | undefined): boolean {
  return !!table?.columns.some((c) => c.primaryKey && c.references?.table === 'auth.users');
}

/** The target's tenant column, or undefined when no column is on most tables, referencing one table of no people, and read by a function. */
export function tenantColumnIn(target: TargetFacts): TenantColumn | undefined {
  const byName = new Map(target.tables.map((t) => [t.name, t]));
  const holders = new Map<string, { column: string; table: string; holders: number }>();
  for (const t of target.tables) {
    for (const c of t.columns) {
      const ref = c.references;
      if (!ref || ref.table === t.name || ref.table.startsWith('auth.') || holdsPeople(byName.get(ref.table))) continue;
      const at = `${c.name}\u0000${ref.table}`;
      const seen = holders.get(at) ?? { column: c.name, table: ref.table, holders: 0 };
      holders.set(at, { ...seen, holders: seen.holders + 1 });
    }
  }
  const best = [...holders.values()].sort((a, b) => b.holders - a.holders || a.column.localeCompare(b.column))[0];
  if (!best || best.holders < FEWEST_HOLDERS) return undefined;
  const of = target.tables.filter((t) => t.name !== best.table).length;
  if (tablesInTenant(target, best) * 2 <= of) return undefined;
  const read = new RegExp(`\\b${best.column}\\b`, 'i');
  if (!target.functions.some((f) => !f.trigger && read.test(f.source))) return undefined;
  return { ...best, of };
}

/**
 * How many tables are a tenant's: those holding its column, and those whose NOT NULL foreign key
 * leads to one (a ticket's comments, a project's documents and their files: Basejump's children
 * carry no `account_id` of their own). Counting the holders alone missed stranger-app-18's
 * `account_id` on 10 of 25 tables.
 */
function tablesInTenant(target: TargetFacts, tenant: { column: string; table: string }): number {
  const inTenant = new Set(target.tables.filter((t) => t.columns.some((c) => c.name === tenant.column && c.references?.table === tenant.table)).map((t) => t.name));
  for (let grew = true; grew; ) {
    grew = false;
    for (const t of target.tables) {
      if (inTenant.has(t.name) || t.name === tenant.table || !t.columns.some((c) => c.notNull && c.references && c.references.table !== t.name && inTenant.has(c.references.table))) continue;
      inTenant.add(t.name);
      grew = true;
    }
  }
  return inTenant.size;
}

/** `target` with its tenant column marked on every table holding it (column matching never pairs a model column with it). */
export function withTenantColumnMarked(target: TargetFacts, tenant: TenantColumn | undefined): TargetFacts {
  if (!tenant) return target;
  return { ...target, tables: target.tables.map((t) => (t.columns.some((c) => isTenantColumn(c, tenant)) ? { ...t, columns: t.columns.map((c) => (isTenantColumn(c, tenant) ? { ...c, tenant: true as const } : c)) } : t)) };
}

function isTenantColumn(c: { name: string; references?: { table: string } }, tenant: TenantColumn): boolean {
  return c.name === tenant.column && c.references?.table === tenant.table;
}

/** init's note on it, for a person to confirm. */
export function tenantColumnNote(tenant: TenantColumn): string {
  return `confirm: fixtures.tenantColumn: ${tenant.column} (on ${tenant.holders} of ${tenant.of} tables, referencing ${tenant.table}, read by the policies' helpers): the spec's rules hold within one tenant, so each case's rows, people and the caller's membership are in one ${tenant.table} row, the caller's; no model column is paired with it`;
}
