/**
 * Embedded resources in a read's `select=` (supabase-js `.select('*, remarks(*)')`), found the way
 * PostgREST v12.2 finds them: from foreign keys (SchemaCache.hs allM2OandO2ORels, addInverseRels).
 * Pure: the model resolves over its tables' `foreignKeys`, the executor over the catalog's, with
 * this one rule.
 */
import type { Json, Row } from './json.ts';

/**
 * A foreign key as a table model declares it: one column (`project_id` → `projects.id`) or
 * several, in the constraint's order (`(org_id, member_id)` → `members (org_id, id)`).
 */
export type ForeignKey =
  | { column: string; references: string; referencedColumn: string }
  | { columns: string[]; references: string; referencedColumns: string[] };

/**
 * `table.columns` references `references.referencedColumns`, pairwise. `unique`: the columns are
 * exactly a primary key or UNIQUE constraint of `table` (a unique index is not a constraint and
 * does not count: allM2OandO2ORels reads pg_constraint contype p/u), which makes the key one-to-one.
 */
export interface ForeignKeyEdge {
  table: string;
  columns: string[];
  references: string;
  referencedColumns: string[];
  unique?: boolean;
}

/** A table model's foreign key as an edge; `keys`: its primary key and UNIQUE constraints. */
export function foreignKeyEdge(table: string, fk: ForeignKey, keys: readonly (readonly string[])[]): ForeignKeyEdge {
  const [columns, referencedColumns] = 'columns' in fk ? [fk.columns, fk.referencedColumns] : [[fk.column], [fk.referencedColumn]];
  const unique = keys.some((k) => k.length === columns.length && k.every((c) => columns.includes(c)));
  return { table, columns, references: fk.references, referencedColumns, ...(unique ? { unique } : {}) };
}

/**
 * How an embedded table hangs off its parent: `toOne` (many-to-one: the parent holds the key; or
 * one-to-one: the child's key columns are a primary key or UNIQUE constraint of the child,
 * Relationship.hs O2O) gives an object or null, else (one-to-many) an array. A row pairs with a
 * parent row where `embedded[embeddedColumns[i]] = parent[parentColumns[i]]` for every i.
 */
export interface Relationship {
  toOne: boolean;
  parentColumns: string[];
  embeddedColumns: string[];
}

/**
 * The one relationship between `parent` and `embedded`, or why there is none: PostgREST answers
 * PGRST200 when no foreign key joins them and PGRST201 when more than one does (a hint would be
 * needed; policyfuzz sends none).
 */
export function resolveRelationship(edges: readonly ForeignKeyEdge[], parent: string, embedded: string): Relationship | 'PGRST200' | 'PGRST201' {
  const found: Relationship[] = [];
  for (const e of edges) {
    if (e.table === parent && e.references === embedded) found.push({ toOne: true, parentColumns: e.columns, embeddedColumns: e.referencedColumns });
    if (e.table === embedded && e.references === parent) found.push({ toOne: e.unique === true, parentColumns: e.referencedColumns, embeddedColumns: e.columns });
  }
  if (found.length === 0) return 'PGRST200';
  return found.length === 1 ? found[0] : 'PGRST201';
}

/**
 * An embed's `order=` term (`remarks.order=created_at.desc.nullslast`), written by PostgREST as
 * `ORDER BY "remarks_1"."created_at" DESC NULLS LAST` (SqlFragment.hs pgFmtOrderTerm) in the
 * embed's subquery. No direction: ascending; no nulls: Postgres' default (last ascending, first
 * descending).
 */
export interface OrderTerm {
  column: string;
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

/** `created_at.desc.nullslast`: an order term as the query string writes it. */
export function orderTermText(t: OrderTerm): string {
  return [t.column, ...(t.direction ? [t.direction] : []), ...(t.nulls ? [`nulls${t.nulls}`] : [])].join('.');
}

/**
 * Rows sorted as Postgres sorts them under ORDER BY: numbers by value, booleans false first, other
 * values (uuid, text, timestamps in ISO form) by their text in code point order: the C collation
 * of policyfuzz's own server (on a server with another collation, text is compared by
 * couldBeSorted instead). Stable, so ties keep their order (the database may give any).
 */
export function sortRows(rows: readonly Row[], order: readonly OrderTerm[]): Row[] {
  return [...rows].sort((a, b) => {
    for (const t of order) {
      const c = compareValues(a[t.column] ?? null, b[t.column] ?? null, t);
      if (c !== 0) return c;
    }
    return 0;
  });
}

/**
 * Could Postgres answer `rows` in this sequence under ORDER BY `order`, where the columns in
 * `collationUnknown` hold text sorted by a collation policyfuzz does not know (a server whose
 * collation is not C)? Two different texts there compare as unknown: either may come first, and
 * such a term decides the pair, so later terms say nothing about it. What is known must hold
 * between neighbours, and the orders the unknown terms imply must be one order per term (no text
 * both before and after another): then some collation sorts the rows so.
 */
export function couldBeSorted(rows: readonly Row[], order: readonly OrderTerm[], collationUnknown: readonly string[]): boolean {
  const before = order.map(() => new Map<string, Set<string>>());
  for (let i = 0; i + 1 < rows.length; i++) {
    for (const [k, t] of order.entries()) {
      const [a, b] = [rows[i][t.column] ?? null, rows[i + 1][t.column] ?? null];
      const unknown = collationUnknown.includes(t.column) && a !== null && b !== null && JSON.stringify(a) !== JSON.stringify(b);
      if (unknown) {
        const edges = before[k];
        if (!edges.has(JSON.stringify(a))) edges.set(JSON.stringify(a), new Set());
        edges.get(JSON.stringify(a))!.add(JSON.stringify(b));
        break;
      }
      const c = compareValues(a, b, t);
      if (c > 0) return false;
      if (c < 0) break;
    }
  }
  return before.every((edges) => !hasCycle(edges));
}

function hasCycle(edges: Map<string, Set<string>>): boolean {
  const state = new Map<string, 'open' | 'done'>();
  const visit = (v: string): boolean => {
    if (state.get(v) === 'open') return true;
    if (state.get(v) === 'done') return false;
    state.set(v, 'open');
    const cyclic = [...(edges.get(v) ?? [])].some(visit);
    state.set(v, 'done');
    return cyclic;
  };
  return [...edges.keys()].some(visit);
}

function compareValues(a: Json, b: Json, t: OrderTerm): number {
  const desc = t.direction === 'desc';
  if (a === null || b === null) {
    if (a === b) return 0;
    const nullsFirst = t.nulls ? t.nulls === 'first' : desc;
    return (a === null) === nullsFirst ? -1 : 1;
  }
  const c = typeof a === 'number' && typeof b === 'number' ? a - b : typeof a === 'boolean' && typeof b === 'boolean' ? Number(a) - Number(b) : codePointCompare(valueText(a), valueText(b));
  return desc ? -Math.sign(c) : Math.sign(c);
}

function valueText(v: Json): string {
  // A uuid sorts by its bytes (uuid_cmp: memcmp), the order of its lower-case hex text.
  return typeof v === 'string' ? (UUID.test(v) ? v.toLowerCase() : v) : JSON.stringify(v);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function codePointCompare(a: string, b: string): number {
  const [x, y] = [[...a], [...b]];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}
