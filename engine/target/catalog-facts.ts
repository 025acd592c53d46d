/**
 * The target's catalog as the mapping's shape-bound answers read it (mapping.ts CatalogFacts): a
 * column's foreign key from the table shapes, a function's return type from the schema cache,
 * the privileges row security decides (row-security-grants.ts).
 * Only a target read from its catalog (a plan with shapes) has them.
 */
import type { CatalogFacts } from '../mapping/mapping.ts';
import type { CachedFunction } from '../executor/schema-cache.ts';
import type { FixturePlan } from './fixtures.ts';
import { rowSecurityGrantKey } from '../introspection/row-security-grants.ts';

/** Each function's return type by the names a request calls it by (`fn`, `schema.fn`); an overloaded name with two return types has none. */
export function functionTypesOf(functions: ReadonlyMap<string, readonly CachedFunction[]>): ReadonlyMap<string, string> {
  const types = new Map<string, string>();
  const ambiguous = new Set<string>();
  for (const [qualified, overloads] of functions) {
    for (const f of overloads) {
      if (!f.returnType) continue;
      for (const name of [qualified, f.name]) {
        if (types.has(name) && types.get(name) !== f.returnType) ambiguous.add(name);
        else types.set(name, f.returnType);
      }
    }
  }
  for (const name of ambiguous) types.delete(name);
  return types;
}

const factsOf = new WeakMap<FixturePlan, CatalogFacts>();

export function catalogFacts(plan: FixturePlan): CatalogFacts | undefined {
  const shapes = plan.shapes;
  if (!shapes) return undefined;
  let facts = factsOf.get(plan);
  if (!facts) {
    let types: ReadonlyMap<string, string> | undefined;
    facts = {
      referencedTable: (table, column) => shapes.get(table)?.find((c) => c.name === column)?.references?.table,
      returnType: (fn) => (types ??= functionTypesOf(plan.functions ?? new Map())).get(fn),
      rowSecurityDecides: (table, privilege, role) => plan.grantsUnderRowSecurity?.has(rowSecurityGrantKey(table, privilege, role)) ?? false,
    };
    factsOf.set(plan, facts);
  }
  return facts;
}
