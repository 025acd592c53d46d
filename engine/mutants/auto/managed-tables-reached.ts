/**
 * Supabase's own tables a pack's requests reach through the API: a property names the table and
 * the project's config exposes its schema (supabase-swift's examples: `storage` exposed, policies
 * letting any signed-in user create and remove `storage.buckets`, a property sending those
 * requests). Their project policies are judged by those requests, so `mutants --auto` mutates
 * them; the other tables of Supabase's schemas stay out (their rows are reached through Storage,
 * Realtime or Auth, not PostgREST).
 */
import type { DataProperty } from '../../runner/data-property.ts';
import { MANAGED_SCHEMAS } from '../../db/supabase/managed-schemas.ts';
import { splitName, targetTable, type TargetMapping } from '../../mapping/mapping.ts';

/** `schema.table` of each table in one of Supabase's own schemas that the API exposes and a property names (through the mapping). */
export function managedTablesTheApiReaches(exposedSchemas: readonly string[], properties: readonly Pick<DataProperty, 'tables'>[], mapping: TargetMapping | undefined): Set<string> {
  const out = new Set<string>();
  for (const table of properties.flatMap((p) => p.tables)) {
    const { schema, name } = splitName(mapping ? targetTable(mapping, table) : table);
    if (schema && MANAGED_SCHEMAS.includes(schema) && exposedSchemas.includes(schema)) out.add(`${schema}.${name}`);
  }
  return out;
}
