/**
 * Embedded resources in a read's `select=` (supabase-js `.select('*, remarks(*)')`), found the way
 * PostgREST v12.2 finds them: from foreign keys (SchemaCache/Relationship.hs). Pure: the model
 * resolves over its tables' `foreignKeys`, the executor over the catalog's, with this one rule.
 */

/** A single-column foreign key: `table.column` references `references.referencedColumn`. */
export interface ForeignKeyEdge {
  table: string;
  column: string;
  references: string;
  referencedColumn: string;
}

/**
 * How an embedded table hangs off its parent: `toOne` (many-to-one: the parent holds the key; or
 * one-to-one: the child's key column is its whole primary key, Relationship.hs O2O) gives an object
 * or null, else (one-to-many) an array. A row pairs with a parent row where
 * `embedded[embeddedColumn] = parent[parentColumn]`.
 */
export interface Relationship {
  toOne: boolean;
  parentColumn: string;
  embeddedColumn: string;
}

/**
 * The one relationship between `parent` and `embedded`, or why there is none: PostgREST answers
 * PGRST200 when no foreign key joins them and PGRST201 when more than one does (a hint would be
 * needed; policyfuzz sends none). `primaryKeyOf` tells a one-to-one key.
 */
export function resolveRelationship(edges: readonly ForeignKeyEdge[], parent: string, embedded: string, primaryKeyOf: (table: string) => readonly string[]): Relationship | 'PGRST200' | 'PGRST201' {
  const found: Relationship[] = [];
  for (const e of edges) {
    if (e.table === parent && e.references === embedded) found.push({ toOne: true, parentColumn: e.column, embeddedColumn: e.referencedColumn });
    if (e.table === embedded && e.references === parent) {
      const pk = primaryKeyOf(embedded);
      found.push({ toOne: pk.length === 1 && pk[0] === e.column, parentColumn: e.referencedColumn, embeddedColumn: e.column });
    }
  }
  if (found.length === 0) return 'PGRST200';
  return found.length === 1 ? found[0] : 'PGRST201';
}
