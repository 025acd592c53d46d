/**
 * Embedded resources in a read's `select=` (supabase-js `.select('*, remarks(*)')`), found the way
 * PostgREST v12.2 finds them: from foreign keys (SchemaCache.hs allM2OandO2ORels, addInverseRels).
 * Pure: the model resolves over its tables' `foreignKeys`, the executor over the catalog's, with
 * this one rule.
 */
import type { Json, Row } from './json.ts';

/**
 * A foreign key as a table model declares it: one column (`project_id` → `projects.id`) or
 * several, in the constraint's order (`(org_id, member_id)` → `members (org_id, id)`). `name`:
 * the constraint's, for a `!hint` (`users!posts_author_id_fkey`); absent, Postgres' default name
 * (`<table>_<columns joined by _>_fkey`, defaultConstraintName).
 */
export type ForeignKey =
  | { column: string; references: string; referencedColumn: string; name?: string }
  | { columns: string[]; references: string; referencedColumns: string[]; name?: string };

/**
 * `table.columns` references `references.referencedColumns`, pairwise. `unique`: the columns are
 * exactly a primary key or UNIQUE constraint of `table` (a unique index is not a constraint and
 * does not count: allM2OandO2ORels reads pg_constraint contype p/u), which makes the key one-to-one.
 * `inPrimaryKey`: every column is part of `table`'s primary key, which makes `table` a junction
 * between two tables it references so (SchemaCache.hs addM2MRels). `name`: the constraint's.
 */
export interface ForeignKeyEdge {
  table: string;
  columns: string[];
  references: string;
  referencedColumns: string[];
  unique?: boolean;
  inPrimaryKey?: boolean;
  name?: string;
}

/** Postgres' name for an unnamed foreign key (ChooseConstraintName: `posts_author_id_fkey`, `seats_org_team_fkey`). */
export function defaultConstraintName(table: string, columns: readonly string[]): string {
  return `${table.slice(table.lastIndexOf('.') + 1)}_${columns.join('_')}_fkey`.slice(0, 63);
}

/** A table model's foreign key as an edge; `keys`: its primary key first, then its UNIQUE constraints. */
export function foreignKeyEdge(table: string, fk: ForeignKey, keys: readonly (readonly string[])[]): ForeignKeyEdge {
  const [columns, referencedColumns] = 'columns' in fk ? [fk.columns, fk.referencedColumns] : [[fk.column], [fk.referencedColumn]];
  const unique = keys.some((k) => k.length === columns.length && k.every((c) => columns.includes(c)));
  const inPrimaryKey = keys.length > 0 && columns.every((c) => keys[0].includes(c));
  return { table, columns, references: fk.references, referencedColumns, ...(unique ? { unique } : {}), ...(inPrimaryKey ? { inPrimaryKey } : {}), name: fk.name ?? defaultConstraintName(table, columns) };
}

/**
 * Whether a foreign key can be one side of a many-to-many junction (SchemaCache.hs addM2MRels): its
 * columns lie within the table's primary key, and it is many-to-one only (a key that is itself
 * unique, one-to-one, makes no junction). Also what the harness asks of a target's catalog.
 */
export function isJunctionKey(e: Pick<ForeignKeyEdge, 'inPrimaryKey' | 'unique'>): boolean {
  return e.inPrimaryKey === true && e.unique !== true;
}

/**
 * How an embedded table hangs off its parent (Relationship.hs Cardinality): `M2O` (the parent
 * holds the key), `O2M` (the embedded table does), `O2O` (a key whose columns are a primary key
 * or UNIQUE constraint of its table, either way), `M2M` (through `junction`: a table whose two
 * foreign keys, one to each side, lie in its primary key). To-one gives an object or null, else
 * an array. `table`: the embedded table. A row pairs with a parent row where
 * `embedded[embeddedColumns[i]] = parent[parentColumns[i]]` for every i; through a junction, a
 * junction row pairs with the parent on `junction.columns` (against `parentColumns`) and with the
 * embedded row on `junction.targetColumns` (against `embeddedColumns`).
 */
export interface Relationship {
  kind: 'M2O' | 'O2M' | 'O2O' | 'M2M';
  toOne: boolean;
  table: string;
  parentColumns: string[];
  embeddedColumns: string[];
  junction?: { table: string; columns: string[]; targetColumns: string[] };
  /** The foreign key's constraint name (M2M: the junction's key to the parent). */
  constraint?: string;
  /** Parent and embedded are one table (Relationship.hs relIsSelf). */
  self: boolean;
}

/** PostgREST's refusal to embed: no relationship matches (PGRST200), or several do (PGRST201, with its hint naming each by `!hint`). */
export type EmbedRefusal = { code: 'PGRST200' } | { code: 'PGRST201'; hint: string };

/**
 * Every relationship from `parent`, as SchemaCache.hs builds them (v12.2.3): each foreign key
 * many-to-one or one-to-one (allM2OandO2ORels, lines 839-890), many-to-many through each table
 * holding two different foreign keys within its primary key (addM2MRels, 580-592), and each
 * key's inverse (addInverseRels, 573-577). A self-referencing key gives both M2O and O2M.
 */
function relationshipsFrom(edges: readonly ForeignKeyEdge[], parent: string): Relationship[] {
  const rels: Relationship[] = [];
  for (const e of edges) {
    const self = e.table === e.references;
    if (e.table === parent) rels.push({ kind: e.unique ? 'O2O' : 'M2O', toOne: true, table: e.references, parentColumns: e.columns, embeddedColumns: e.referencedColumns, constraint: e.name, self });
    if (e.references === parent) rels.push({ kind: e.unique ? 'O2O' : 'O2M', toOne: e.unique === true, table: e.table, parentColumns: e.referencedColumns, embeddedColumns: e.columns, constraint: e.name, self });
  }
  for (const toParent of edges) {
    if (toParent.references !== parent || !isJunctionKey(toParent)) continue;
    for (const toTarget of edges) {
      if (toTarget === toParent || toTarget.table !== toParent.table || !isJunctionKey(toTarget)) continue;
      rels.push({
        kind: 'M2M',
        toOne: false,
        table: toTarget.references,
        parentColumns: toParent.referencedColumns,
        embeddedColumns: toTarget.referencedColumns,
        junction: { table: toParent.table, columns: toParent.columns, targetColumns: toTarget.columns },
        constraint: toParent.name,
        self: toTarget.references === parent,
      });
    }
  }
  return rels;
}

const KIND_RANK = { O2M: 0, M2O: 1, O2O: 2, M2M: 3 } as const;

/**
 * The one relationship an embed `target!hint` names from `parent`, as Plan.hs findRel (v12.2.3,
 * lines 528-606) picks it: `target` is the embedded table, or (no hint) a foreign key's
 * constraint name or its one column on the parent's side; a hint names the constraint, a column
 * of a one-column key (either side), or the junction table. A self-referencing key is read by
 * convention: `categories(*)` or `categories!parent_id(*)` are its one-to-many (the children),
 * `parent_id(*)` its many-to-one (the parent). None: PGRST200; several: PGRST201, whose hint
 * (Error.hs relHint) lists each as `'<table>!<constraint or junction>'` in the schema cache's
 * order (RelationshipsMap sorted: by table, then one-to-many, many-to-one, one-to-one,
 * many-to-many, then by name). `qualify`: the catalog's key for a table name (`public.tags`).
 */
export function resolveRelationship(edges: readonly ForeignKeyEdge[], parent: string, target: string, hint?: string, qualify: (name: string) => string = (n) => n): Relationship | EmbedRefusal {
  const single = (cols: string[]) => (cols.length === 1 ? cols[0] : undefined);
  const found = relationshipsFrom(edges, parent).filter((r) => {
    const isTarget = r.table === qualify(target);
    if (r.self) {
      if (hint === undefined) return (isTarget && r.kind === 'O2M') || (r.kind === 'M2O' && single(r.parentColumns) === target);
      return isTarget && r.kind === 'O2M' && single(r.embeddedColumns) === hint;
    }
    const keyed = r.kind !== 'M2M';
    if (hint === undefined) return isTarget || (keyed && (r.constraint === target || single(r.parentColumns) === target));
    return isTarget && (keyed ? r.constraint === hint || single(r.parentColumns) === hint || single(r.embeddedColumns) === hint : bareName(r.junction!.table) === hint);
  });
  if (found.length === 0) return { code: 'PGRST200' };
  if (found.length === 1) return found[0];
  const named = (r: Relationship) => (r.junction ? bareName(r.junction.table) : (r.constraint ?? ''));
  const sorted = [...found].sort((a, b) => compareText(a.table, b.table) || KIND_RANK[a.kind] - KIND_RANK[b.kind] || compareText(named(a), named(b)));
  const listed = sorted.map((r) => `'${bareName(r.table)}!${named(r)}'`).join(', ');
  return { code: 'PGRST201', hint: `Try changing '${target}' to one of the following: ${listed}. Find the desired relationship in the 'details' key.` };
}

/** The key an embed's value has in its parent row: `alias:` if given, else the target as written (Plan.hs generateRelSelectField rsSelName). */
export function embedKey(e: { table: string; alias?: string }): string {
  return e.alias ?? e.table;
}

function bareName(key: string): string {
  return key.slice(key.lastIndexOf('.') + 1);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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
