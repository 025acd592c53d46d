/**
 * What a foreign schema demands of a row, read from its catalog: NOT NULL columns without
 * defaults, CHECK vocabularies, enum labels, single-column foreign keys and unique columns.
 * The fixture filler (fill-row.ts) uses it to complete the model's rows.
 */
import { expressionReadsCaller, readCallerReaders } from './caller-readers.ts';
import { checkForms, type CheckForm } from './check-forms.ts';
import type pg from 'pg';
import type { OnDelete } from '../model/foreign-key-actions.ts';
import type { Json } from '../model/json.ts';
import { escapeRegExp } from '../regexp.ts';
import { columnAgreements, type ColumnAgreement } from './column-agreements.ts';
import { MANAGED_SCHEMAS } from '../db/supabase/managed-schemas.ts';

export interface ColumnShape {
  name: string;
  /** format_type(), e.g. `text`, `uuid`, `timestamp with time zone`, `text[]`, `order_status`. */
  type: string;
  /** The domain the column is declared with (`email_address`), `type` being the base under it: a name for the column's kind. */
  domain?: string;
  notNull: boolean;
  hasDefault: boolean;
  /**
   * The default's value when it is a constant (`'draft'::text`, `false`, `0`, `'{}'::jsonb`, an
   * empty array), as PostgREST answers it: a row left without the column holds it. Absent: no
   * default, or one the server computes (now(), nextval, gen_random_uuid()).
   */
  constantDefault?: Json;
  /**
   * The default is the caller's (`default auth.uid()`, `default private.jwt_org_id()`: a claim, or a
   * function reading one; introspection/caller-readers.ts): null for a writer without a token, so
   * the fixtures (the server context) write such a NOT NULL column themselves.
   */
  callerDefault?: true;
  generated: boolean;
  /** `generated always as identity`: written only with OVERRIDING SYSTEM VALUE (fixtures), never by a request. */
  identityAlways?: boolean;
  /** The column owns a sequence (serial or identity): fixtures that write its keys move the sequence past them. */
  ownsSequence?: boolean;
  enumLabels?: string[];
  /** An array of an enum (`app_permission[]`): the element's labels. */
  elementEnumLabels?: string[];
  /** Allowed values from a CHECK (col = ANY (ARRAY[...])) or (col = '…'). */
  vocabulary?: string[];
  /** The name of the CHECK constraint the vocabulary comes from. */
  vocabularyConstraint?: string;
  /** The simple CHECK forms on this column (check-forms.ts): a format, a range, a length cap, or the column as a sum of others; each with its constraint's name. */
  checks?: (CheckForm & { constraint: string })[];
  /** A single-column foreign key, with its ON DELETE (the model predicts it: engine/model/foreign-key-actions.ts). */
  references?: { table: string; column: string; onDelete?: OnDelete; deferred?: boolean };
  /** The tables foreign keys over several columns, this one first, reference (pgflow's deps → steps): only for ordering deletes. */
  referencesTogether?: string[];
  unique: boolean;
  /** The table's primary key is this column alone. */
  primaryKey?: boolean;
  /** That primary key's name (a duplicate key error names it: target/key-the-model-lacks.ts). */
  primaryKeyName?: string;
  /**
   * Unique indexes (and constraints) on this column alone, plain or on `lower(col)`, `trim(col)`
   * and the like: two rows collide when their values are equal after `fold`. Partial and
   * multi-column ones are left to the database.
   */
  uniqueIndexes?: UniqueIndex[];
  /**
   * Unique constraints (and primary keys) over several columns, and unique indexes over several
   * columns (plain or folded as for `uniqueIndexes`) with no predicate, this one first: two rows
   * collide when every column holds the same non-null value (after its fold).
   */
  /** CHECKs tying this table's columns to one another (column-agreements.ts), kept on the constraint's first column. */
  agreements?: (ColumnAgreement & { constraint: string })[];
  uniqueTogether?: { name: string; columns: string[]; /** Each column's fold, when an index compares one folded. */ folds?: UniqueIndex['fold'][]; nullsNotDistinct?: true; /** The table's composite primary key (a junction's, for PostgREST's many-to-many embeds). */ primaryKey?: true }[];
}

export interface UniqueIndex {
  name: string;
  /** What the index compares: the value case-folded (lower/upper) and/or trimmed of spaces. */
  fold: { lower: boolean; trim: boolean };
  /** `UNIQUE NULLS NOT DISTINCT` (PG15+, pg_index.indnullsnotdistinct): two nulls collide too. */
  nullsNotDistinct?: true;
}

/**
 * How a one-column unique index expression (pg_get_indexdef) compares its column, or undefined when
 * it is not one policyfuzz can follow: the column itself, under lower()/upper() and trim()/btrim().
 */
export function uniqueFold(expression: string, column: string): UniqueIndex['fold'] | undefined {
  const col = new RegExp(`(^|[^\\w"])"?${escapeRegExp(column)}"?(?![\\w"])`);
  if (!col.test(expression)) return undefined;
  const lower = /\b(lower|upper)\(/i.test(expression);
  const trim = /\bTRIM\(BOTH FROM\b|\bbtrim\([^,()]*\)/i.test(expression);
  // Anything left besides these wrappers and text casts is another function: not followed.
  const rest = expression
    .replace(col, '$1')
    .replace(/\b(lower|upper|btrim)\(/gi, '')
    .replace(/\bTRIM\(BOTH FROM\b/gi, '')
    .replace(/::text|[()\s]/g, '');
  return rest === '' ? { lower, trim } : undefined;
}

/** A type (format_type(), domains read as their base) comparing text case-insensitively. */
const CITEXT = /^citext\b/;

/** Whether two values of a key column of `type` equal once lower-cased are the same key: citext folds case, and so does uuid's input. */
export const keyFoldsCase = (type: string): boolean => CITEXT.test(type) || /^uuid\b/.test(type);

/** Whether a partial index's predicate (pg_get_expr) is only `column IS NOT NULL`. */
export function onlyNotNull(predicate: string, column: string): boolean {
  return new RegExp(`^\\(*"?${escapeRegExp(column)}"? IS NOT NULL\\)*$`, 'i').test(predicate.trim());
}

export type TableShapes = Map<string, ColumnShape[]>;

/** pg_constraint.confdeltype. */
const ON_DELETE: Record<string, OnDelete> = { a: 'no action', r: 'restrict', c: 'cascade', n: 'set null', d: 'set default' };

/** `public.users` → `users`; other schemas keep their prefix, as model table names do. */
export function modelTableName(schema: string, table: string): string {
  return schema === 'public' ? table : `${schema}.${table}`;
}

/** Values of a CHECK that pins one column to a list, as Postgres prints it. */
export function checkVocabulary(definition: string, column: string): string[] | undefined {
  const col = `\\(?"?${column}"?\\)?(?:::text)?`;
  const any = new RegExp(`${col}\\s*=\\s*ANY\\s*\\(\\s*\\(?ARRAY\\[([^\\]]*)\\]`, 'i').exec(definition);
  const single = new RegExp(`^CHECK \\(\\(?${col}\\s*=\\s*'((?:[^']|'')*)'`, 'i').exec(definition);
  const list = any ? [...any[1].matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1].replace(/''/g, "'")) : single ? [single[1].replace(/''/g, "'")] : undefined;
  return list?.length ? list : undefined;
}

/**
 * A type as format_type() names it, without the schema it prefixes when that schema is off the
 * search path (`extensions.citext` → `citext`, `public.order_status[]` → `order_status[]`):
 * what a type is recognised by. Messages keep the qualified name.
 */
export function unqualifiedType(type: string): string {
  return type.replace(/^(?:"(?:[^"]|"")*"|[^".\s(]+)\.(?=\S)/, '');
}

/** Unqualified types whose JSON is a string of the literal itself (the fixture filler's too: fill-row.ts). */
export const TEXT_TYPE = /^(text|character varying|varchar|character|citext)\b/;
/** Unqualified types whose JSON is a number. */
export const NUMERIC_TYPE = /^(integer|bigint|smallint|numeric|real|double precision|decimal)\b/;

/**
 * A column default's value when the expression (pg_get_expr) is a constant of a type whose JSON
 * is the literal itself: a quoted literal with a cast (`'draft'::text`, `'-1'::integer`), a bare
 * number or boolean, json(b), an empty array. Undefined for anything the server computes, and
 * for types PostgREST reformats (timestamps, dates): those stay the database's to say.
 */
export function constantDefaultOf(expression: string, qualifiedType: string, enumLabels?: readonly string[]): Json | undefined {
  const type = unqualifiedType(qualifiedType);
  const expr = expression.trim().replace(/^\((.*)\)$/s, '$1');
  if (type === 'boolean') return expr === 'true' ? true : expr === 'false' ? false : undefined;
  const quoted = /^'((?:[^']|'')*)'(?:::[\w ."\[\]()]+)?$/s.exec(expr);
  const literal = quoted ? quoted[1].replace(/''/g, "'") : undefined;
  if (NUMERIC_TYPE.test(type)) {
    const text = literal ?? expr;
    return /^-?\d+(\.\d+)?$/.test(text) && Number.isFinite(Number(text)) ? Number(text) : undefined;
  }
  if (literal === undefined) return undefined;
  if (type.endsWith('[]')) return arrayOfWords(literal, type.slice(0, -2));
  if (type === 'json' || type === 'jsonb') {
    try {
      return JSON.parse(literal) as Json;
    } catch {
      return undefined;
    }
  }
  if (TEXT_TYPE.test(type) || type === 'uuid' || enumLabels?.includes(literal)) return type === 'uuid' ? literal.toLowerCase() : literal;
  return undefined;
}

/**
 * An array default as its elements: the empty array, or an enum array's plain labels
 * (`'{user}'::app_role[]`): stranger-app-14's `roles app_role[] default '{user}'` was unread, so a
 * row made without a role was written with a null there (NOT NULL refused it). Other arrays
 * (text, numbers, quoted elements) stay the database's to say.
 */
function arrayOfWords(literal: string, elementType: string): Json | undefined {
  if (literal === '{}') return [];
  if (TEXT_TYPE.test(elementType) || NUMERIC_TYPE.test(elementType) || ['boolean', 'uuid', 'jsonb', 'json'].includes(elementType) || /^(timestamp|date|time)/.test(elementType)) return undefined;
  const words = /^\{([A-Za-z_][\w-]*(?:,[A-Za-z_][\w-]*)*)\}$/.exec(literal)?.[1];
  return words === undefined ? undefined : words.split(',');
}

/** A view the API writes through to one table (`create view api.users as select id, … from private.users`). */
export interface ProjectionView {
  /** Model-style names: `api.users`, `private.users`. */
  view: string;
  table: string;
  /** The view's columns (each the table's of the same name). */
  columns: string[];
  /**
   * Columns the view computes (`private.role_of(u.id) as role`: a role held in another table),
   * read-only: a write naming one is refused by Postgres, a fixture leaves it out (generated).
   */
  computed?: { name: string; type: string }[];
}

/** SQL: the oids of the relations a view (`view`, an oid expression) reads, as an array (its rewrite rule's dependencies). */
export const relationsReadBy = (view: string) =>
  `(select array_agg(distinct d.refobjid) from pg_rewrite rw join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = rw.oid
     where rw.ev_class = ${view} and d.refclassid = 'pg_class'::regclass and d.refobjid <> ${view})`;

/**
 * The auto-updatable views in `schemas` over exactly one table, each of whose columns is that
 * table's column of the same name (a projection, `security_invoker` or not): a project exposing
 * an `api` schema of such views over a `private` one. What the table demands of a row (keys,
 * NOT NULL, defaults, CHECKs, references) is what a write through the view meets. A view
 * renaming a column is not one (its rows are not the table's), nor one that mostly computes.
 * A few read-only computed columns beside the table's own (stranger-app-9's `api.users` showing
 * `private.role_of(id) as role`, the role held in a table of role grants) are kept as
 * `computed`: without them such a view was no table at all, and the model's `users` went unmapped.
 */
export async function readProjectionViews(client: pg.Client, schemas: string[]): Promise<ProjectionView[]> {
  const r = await client.query<{ schema: string; view: string; table_schema: string; table: string; columns: string[]; computed: string[]; computed_types: string[] }>(
    `select vn.nspname as schema, v.relname as view, bn.nspname as table_schema, b.relname as table,
            array(select a.attname::text from pg_attribute a where a.attrelid = v.oid and a.attnum > 0 and not a.attisdropped and pg_column_is_updatable(v.oid, a.attnum, false) order by a.attnum) as columns,
            array(select a.attname::text from pg_attribute a where a.attrelid = v.oid and a.attnum > 0 and not a.attisdropped and not pg_column_is_updatable(v.oid, a.attnum, false) order by a.attnum) as computed,
            array(select format_type(a.atttypid, a.atttypmod) from pg_attribute a where a.attrelid = v.oid and a.attnum > 0 and not a.attisdropped and not pg_column_is_updatable(v.oid, a.attnum, false) order by a.attnum) as computed_types
       from pg_class v join pg_namespace vn on vn.oid = v.relnamespace
       cross join lateral (select ${relationsReadBy('v.oid')} as refs) dep
       join pg_class b on b.oid = dep.refs[1] and b.relkind in ('r', 'p') join pg_namespace bn on bn.oid = b.relnamespace
      where vn.nspname = any($1) and v.relkind = 'v' and cardinality(dep.refs) = 1 and pg_relation_is_updatable(v.oid, false) <> 0
        and not exists (select 1 from pg_attribute a where a.attrelid = v.oid and a.attnum > 0 and not a.attisdropped
                         and pg_column_is_updatable(v.oid, a.attnum, false)
                         and not exists (select 1 from pg_attribute x where x.attrelid = b.oid and x.attname = a.attname and not x.attisdropped))
      order by 1, 2`,
    [schemas],
  );
  // Mostly the table's own columns: a view computing as many as it shows (`select id, upper(role) as tier`) is a view of its own.
  return r.rows
    .filter((x) => x.computed.length < x.columns.length)
    .map((x) => ({
      view: modelTableName(x.schema, x.view),
      table: modelTableName(x.table_schema, x.table),
      columns: x.columns,
      ...(x.computed.length ? { computed: x.computed.map((name, i) => ({ name, type: x.computed_types[i] })) } : {}),
    }));
}

/** Each viewed table's view; of two views over one table (a handler's and a submitter's), the one named as the table. */
function viewsOfTables(views: ProjectionView[]): ReadonlyMap<string, string> {
  const named = (v: ProjectionView) => v.view.split('.').pop() === v.table.split('.').pop();
  return new Map([...views.filter((v) => !named(v)), ...views.filter(named)].map((v) => [v.table, v.view]));
}

/** The shapes of projection views: their table's columns they show, references to a viewed table pointing at its view. */
function projectedShapes(views: ProjectionView[], tables: TableShapes, viewOf: ReadonlyMap<string, string>): TableShapes {
  return new Map(
    views.flatMap((v) => {
      const columns = tables.get(v.table);
      if (!columns) return [];
      const shown = columns.filter((c) => v.columns.includes(c.name)).map((c) => (c.references && viewOf.has(c.references.table) ? { ...c, references: { ...c.references, table: viewOf.get(c.references.table)! } } : c));
      // Computed by the view as a generated column is by the table: never written, read back as the view answers it.
      const computed = (v.computed ?? []).map((c): ColumnShape => ({ name: c.name, type: c.type, notNull: false, hasDefault: false, generated: true, unique: false }));
      return [[v.view, [...shown, ...computed]]];
    }),
  );
}

/**
 * A column declared with a domain whose CHECK is a list (`create domain app_role as text check
 * (value in ('user', 'staff', …))`: stranger-app-5's profiles.role) holds that vocabulary, as a
 * column CHECK would give it; the column's own CHECK, where it has one, comes first.
 */
async function readDomainVocabularies(client: pg.Client, schemas: string[], shapes: TableShapes): Promise<void> {
  const checks = await client.query<{ schema: string; table: string; column: string; name: string; definition: string }>(
    `select n.nspname as schema, c.relname as table, a.attname as column, k.conname::text as name, pg_get_constraintdef(k.oid) as definition
       from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
       join pg_constraint k on k.contypid = a.atttypid and k.contype = 'c'
      where n.nspname = any($1) and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
      order by 1, 2, 3, 4`,
    [schemas],
  );
  for (const k of checks.rows) {
    const col = shapes.get(modelTableName(k.schema, k.table))?.find((c) => c.name === k.column);
    // The domain's simple forms (a format, a length) are the column's, as a CHECK on the column would be.
    if (col) for (const form of checkForms(k.definition) ?? []) if (form.column.toUpperCase() === 'VALUE' && form.kind !== 'sum') (col.checks ??= []).push({ ...form, column: col.name, constraint: k.name });
    const vocabulary = col && !col.vocabulary ? checkVocabulary(k.definition, 'VALUE') : undefined;
    if (!col || !vocabulary) continue;
    col.vocabulary = vocabulary;
    col.vocabularyConstraint = k.name;
  }
}

// Names are cast to text: node-pg returns name[] (oid 1003) as an unparsed string.
export async function readTableShapes(client: pg.Client, schemas: string[]): Promise<TableShapes> {
  const shapes = await withReferencedTables(client, await readRelationShapes(client, schemas), schemas);
  const views = await readProjectionViews(client, schemas);
  if (!views.length) return shapes;
  const schemaOf = (name: string) => (name.includes('.') ? name.split('.')[0] : 'public');
  const elsewhere = [...new Set(views.map((v) => schemaOf(v.table)))].filter((s) => !schemas.includes(s));
  const tables = elsewhere.length ? new Map([...shapes, ...(await readRelationShapes(client, elsewhere))]) : shapes;
  const viewOf = viewsOfTables(views);
  // An exposed table referencing a table the API shows only through its view (stranger-app-9's
  // passport.profiles.user_id → app.users, shown as api.users) references the view: the rows the
  // fixtures write there, and the model's table mapped to it, are the ones it needs.
  // Hidden: outside the exposed schemas, whether or not its shape was read by following a foreign key (withReferencedTables).
  const hiddenViewed = (c: ColumnShape) => c.references !== undefined && !schemas.includes(schemaOf(c.references.table)) && viewOf.has(c.references.table);
  for (const [table, columns] of shapes) {
    if (columns.some(hiddenViewed)) shapes.set(table, columns.map((c) => (hiddenViewed(c) ? { ...c, references: { ...c.references!, table: viewOf.get(c.references!.table)! } } : c)));
  }
  for (const [view, columns] of projectedShapes(views, tables, viewOf)) if (!shapes.has(view)) shapes.set(view, columns);
  return shapes;
}

/** How many hops of foreign keys out of the read schemas are followed (a tenant's owner, its plan…). */
const REFERENCED_DEPTH = 3;

/**
 * `shapes` with the tables they reference by foreign key in schemas not read (a tenant table in a
 * schema the API never exposes: Basejump's `basejump.accounts`, a `private.orgs`), a few hops out:
 * the fixtures make such a parent row, or the caller's tenant row, from its shape. Without it
 * every row naming one was dropped (`… references basejump.accounts, which has no row in this
 * case`: stranger-app-18). Of their schemas' other tables only the membership tables of a kept
 * one are kept too (`basejump.account_user`: tenant-membership.ts makes the caller's rows).
 */
async function withReferencedTables(client: pg.Client, shapes: TableShapes, schemas: readonly string[]): Promise<TableShapes> {
  const schemaOf = (name: string) => (name.includes('.') ? name.split('.')[0] : 'public');
  const tried = new Set<string>();
  for (let hop = 0; hop < REFERENCED_DEPTH; hop++) {
    // Supabase's own schemas (auth.users above all: who exists is the case's to say) are never a project's tenant.
    const wanted = new Set([...shapes.values()].flat().flatMap((c) => (c.references && !shapes.has(c.references.table) && !tried.has(c.references.table) && !schemas.includes(schemaOf(c.references.table)) && !MANAGED_SCHEMAS.includes(schemaOf(c.references.table)) ? [c.references.table] : [])));
    if (!wanted.size) break;
    for (const t of wanted) tried.add(t);
    const read = await readRelationShapes(client, [...new Set([...wanted].map(schemaOf))]);
    for (const t of wanted) if (read.has(t)) shapes.set(t, read.get(t)!);
    for (const [t, columns] of read) if (!shapes.has(t) && [...wanted].some((kept) => shapes.has(kept) && membershipColumns(columns, kept))) shapes.set(t, columns);
  }
  return shapes;
}

/**
 * A membership table's columns of `group` (a tenant table, a team) and of a person: a foreign key
 * to each, unique together (`primary key (user_id, account_id)`, `unique (org_id, user_id)`), the
 * person's referencing auth.users or a table keyed by it. Undefined for any other table (an
 * invitation naming its inviter is not unique on the pair).
 */
export function membershipColumns(columns: readonly ColumnShape[], group: string, peopleTables: readonly string[] = []): { group: ColumnShape; person: ColumnShape } | undefined {
  const groupColumn = columns.find((c) => c.references?.table === group);
  const person = columns.find((c) => c !== groupColumn && (c.references?.table === 'auth.users' || peopleTables.includes(c.references?.table ?? '')));
  if (!groupColumn || !person) return undefined;
  const together = columns.flatMap((c) => c.uniqueTogether ?? []).some((k) => k.columns.length === 2 && k.columns.includes(groupColumn.name) && k.columns.includes(person.name));
  return together ? { group: groupColumn, person } : undefined;
}

async function readRelationShapes(client: pg.Client, schemas: string[]): Promise<TableShapes> {
  const columns = await client.query<{ schema: string; table: string; name: string; type: string; domain: string | null; not_null: boolean; has_default: boolean; default_expr: string | null; generated: boolean; identity_always: boolean; owns_sequence: boolean; enum_labels: string[] | null; element_enum_labels: string[] | null }>(
    // A domain's column is read as its base type (a `name_domain` over text is text), its CHECK the target's to apply;
    // a domain over a domain down to the type under them all (base.oid, the first typmod met on the way).
    `select n.nspname as schema, c.relname as table, a.attname as name,
            format_type(base.oid, base.typmod) as type,
            case when base.oid <> a.atttypid then format_type(a.atttypid, null) end as domain,
            a.attnotnull as not_null, a.atthasdef or a.attidentity <> '' as has_default, a.attgenerated <> '' as generated,
            (select pg_get_expr(d.adbin, d.adrelid) from pg_attrdef d where d.adrelid = a.attrelid and d.adnum = a.attnum and a.attgenerated = '') as default_expr,
            a.attidentity = 'a' as identity_always,
            pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) is not null as owns_sequence,
            (select array_agg(e.enumlabel::text order by e.enumsortorder) from pg_enum e where e.enumtypid = base.oid) as enum_labels,
            (select array_agg(e.enumlabel::text order by e.enumsortorder) from pg_type at join pg_enum e on e.enumtypid = at.typelem where at.oid = base.oid and at.typcategory = 'A') as element_enum_labels
       from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
            cross join lateral (
              with recursive down(oid, typmod, depth) as (
                select a.atttypid, a.atttypmod, 0
                union all
                select t.typbasetype, case when d.typmod <> -1 then d.typmod else t.typtypmod end, d.depth + 1
                  from down d join pg_type t on t.oid = d.oid where t.typtype = 'd' and d.depth < 16)
              select oid, typmod from down order by depth desc limit 1) base
      where n.nspname = any($1) and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
      order by 1, 2, a.attnum`,
    [schemas],
  );
  // PostgreSQL 15 added UNIQUE NULLS NOT DISTINCT (pg_index.indnullsnotdistinct); before it every null is distinct.
  const nullsNotDistinct = (await client.query<{ has: boolean }>(`select current_setting('server_version_num')::int >= 150000 as has`)).rows[0].has ? 'i.indnullsnotdistinct' : 'false';
  const constraints = await client.query<{ schema: string; table: string; name: string; type: string; columns: string[]; definition: string; ref_schema: string | null; ref_table: string | null; ref_columns: string[] | null; on_delete: string; deferred: boolean; nulls_not_distinct: boolean }>(
    `select n.nspname as schema, c.relname as table, k.conname::text as name, k.contype as type, k.confdeltype::text as on_delete, k.condeferred as deferred,
            coalesce((select ${nullsNotDistinct} from pg_index i where i.indexrelid = k.conindid and k.contype = 'u'), false) as nulls_not_distinct,
            array(select a.attname::text from unnest(k.conkey) x join pg_attribute a on a.attrelid = k.conrelid and a.attnum = x) as columns,
            pg_get_constraintdef(k.oid) as definition, rn.nspname as ref_schema, rc.relname as ref_table,
            array(select a.attname::text from unnest(k.confkey) x join pg_attribute a on a.attrelid = k.confrelid and a.attnum = x) as ref_columns
       from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
       left join pg_class rc on rc.oid = k.confrelid left join pg_namespace rn on rn.oid = rc.relnamespace
      where n.nspname = any($1) and k.contype in ('c', 'f', 'u', 'p')`,
    [schemas],
  );
  const shapes: TableShapes = new Map();
  const callerReaders = await readCallerReaders(client);
  for (const r of columns.rows) {
    const key = modelTableName(r.schema, r.table);
    if (!shapes.has(key)) shapes.set(key, []);
    const constantDefault = r.default_expr === null ? undefined : constantDefaultOf(r.default_expr, r.type, r.enum_labels ?? undefined);
    const callerDefault = r.default_expr !== null && expressionReadsCaller(r.default_expr, callerReaders);
    shapes.get(key)!.push({ name: r.name, type: r.type, ...(r.domain ? { domain: r.domain } : {}), notNull: r.not_null, hasDefault: r.has_default, ...(constantDefault !== undefined ? { constantDefault } : {}), ...(callerDefault ? { callerDefault: true as const } : {}), generated: r.generated, unique: false, ...(r.identity_always ? { identityAlways: true } : {}), ...(r.owns_sequence ? { ownsSequence: true } : {}), ...(r.enum_labels ? { enumLabels: r.enum_labels } : {}), ...(r.element_enum_labels ? { elementEnumLabels: r.element_enum_labels } : {}) });
  }
  for (const k of constraints.rows) {
    const cols = shapes.get(modelTableName(k.schema, k.table));
    if (cols && k.type === 'c') {
      for (const form of checkForms(k.definition) ?? []) {
        const col = cols.find((c) => c.name === form.column);
        if (col && (form.kind !== 'sum' || form.addends.every((a) => cols.some((c) => c.name === a)))) (col.checks ??= []).push({ ...form, constraint: k.name });
      }
      const first = cols.find((c) => c.name === k.columns[0]);
      for (const agreement of columnAgreements(k.definition) ?? []) if (first) (first.agreements ??= []).push({ ...agreement, constraint: k.name });
    }
    if (cols && (k.type === 'u' || k.type === 'p') && k.columns.length > 1) {
      const first = cols.find((c) => c.name === k.columns[0]);
      if (first) (first.uniqueTogether ??= []).push({ name: k.name, columns: k.columns, ...(k.nulls_not_distinct ? { nullsNotDistinct: true as const } : {}), ...(k.type === 'p' ? { primaryKey: true as const } : {}) });
    }
    if (cols && k.type === 'f' && k.ref_table && k.columns.length > 1) {
      const first = cols.find((c) => c.name === k.columns[0]);
      if (first) (first.referencesTogether ??= []).push(modelTableName(k.ref_schema!, k.ref_table));
    }
    if (!cols || k.columns.length !== 1) continue;
    const col = cols.find((c) => c.name === k.columns[0]);
    if (!col) continue;
    if (k.type === 'c') {
      const vocabulary = checkVocabulary(k.definition, col.name);
      if (vocabulary) {
        col.vocabulary = vocabulary;
        col.vocabularyConstraint = k.name;
      }
    } else if (k.type === 'f' && k.ref_table && k.ref_columns?.length === 1) {
      col.references = { table: modelTableName(k.ref_schema!, k.ref_table), column: k.ref_columns[0], onDelete: ON_DELETE[k.on_delete] ?? 'no action', ...(k.deferred ? { deferred: true } : {}) };
    } else if (k.type === 'u' || k.type === 'p') {
      col.unique = true;
      if (k.type === 'p') {
        col.primaryKey = true;
        col.primaryKeyName = k.name;
      }
    }
  }
  await readDomainVocabularies(client, schemas, shapes);
  const indexes = await client.query<{ schema: string; table: string; name: string; expression: string; nulls_not_distinct: boolean; predicate: string | null }>(
    `select n.nspname as schema, c.relname as table, ic.relname::text as name, pg_get_indexdef(i.indexrelid, 1, true) as expression, ${nullsNotDistinct} as nulls_not_distinct,
            pg_get_expr(i.indpred, i.indrelid) as predicate
       from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace join pg_class ic on ic.oid = i.indexrelid
      where n.nspname = any($1) and i.indisunique and not i.indisprimary and i.indnkeyatts = 1`,
    [schemas],
  );
  for (const x of indexes.rows) {
    for (const col of shapes.get(modelTableName(x.schema, x.table)) ?? []) {
      // A partial index `where col is not null` compares as the plain one (nulls never collide there).
      if (x.predicate !== null && !onlyNotNull(x.predicate, col.name)) continue;
      const fold = uniqueFold(x.expression, col.name);
      // citext (or a domain over it) compares case-insensitively: a plain index on it folds case.
      if (fold) (col.uniqueIndexes ??= []).push({ name: x.name, fold: CITEXT.test(col.type) ? { ...fold, lower: true } : fold, ...(x.nulls_not_distinct ? { nullsNotDistinct: true as const } : {}) });
    }
  }
  // A unique index over several columns that no constraint owns (Prisma's @@unique, `create unique
  // index … (lower(name), org_id)`): compared as a unique constraint over them is, each key folded
  // as its expression says; one with a key policyfuzz cannot follow is left to the database.
  const together = await client.query<{ schema: string; table: string; name: string; keys: string[]; nulls_not_distinct: boolean }>(
    `select n.nspname as schema, c.relname as table, ic.relname::text as name, ${nullsNotDistinct} as nulls_not_distinct,
            array(select pg_get_indexdef(i.indexrelid, k, true) from generate_series(1, i.indnkeyatts) k order by k) as keys
       from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace join pg_class ic on ic.oid = i.indexrelid
      where n.nspname = any($1) and i.indisunique and i.indnkeyatts > 1 and i.indpred is null
        and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`,
    [schemas],
  );
  for (const x of together.rows) {
    const cols = shapes.get(modelTableName(x.schema, x.table)) ?? [];
    const keys = x.keys.map((expression) => {
      const read = cols.flatMap((c) => {
        const fold = uniqueFold(expression, c.name);
        return fold ? [{ column: c.name, fold }] : [];
      });
      return read.length === 1 ? read[0] : undefined;
    });
    if (keys.some((k) => k === undefined)) continue;
    const first = cols.find((c) => c.name === keys[0]!.column)!;
    const folds = keys.map((k) => k!.fold);
    (first.uniqueTogether ??= []).push({ name: x.name, columns: keys.map((k) => k!.column), ...(folds.some((f) => f.lower || f.trim) ? { folds } : {}), ...(x.nulls_not_distinct ? { nullsNotDistinct: true as const } : {}) });
  }
  return shapes;
}

/** Tables that hold rows before any case (seeded by the migrations): fixtures update those rows rather than insert them again. */
export async function readSeededTables(client: pg.Client, shapes: TableShapes): Promise<string[]> {
  const quoted = (t: string) => (t.includes('.') ? t.split('.').map((x) => `"${x.replace(/"/g, '""')}"`).join('.') : `public."${t.replace(/"/g, '""')}"`);
  const listed = [...shapes.keys()].filter((t) => !t.startsWith('auth.'));
  // A heap table of no blocks holds no row (unless it has inheritance children: a read of it reads
  // theirs): only the others are asked. Asking each table (one
  // `exists` per table, planned in one statement) cost the database 40-50 ms of CPU on a project
  // of 160 tables, most of which the migrations leave empty; their file sizes cost 2-4 ms.
  const empty = listed.length
    ? new Set(
        (
          await client.query<{ name: string }>(
            `select t.name from unnest($1::text[], $2::text[]) as t(name, quoted) join pg_class c on c.oid = to_regclass(t.quoted)
              where c.relkind = 'r' and not c.relhassubclass and c.relam = (select oid from pg_am where amname = 'heap') and pg_relation_size(c.oid) = 0`,
            [listed, listed.map(quoted)],
          )
        ).rows.map((r) => r.name),
      )
    : new Set<string>();
  const tables = listed.filter((t) => !empty.has(t));
  if (!tables.length) return [];
  const sql = tables.map((t, i) => `select $${i + 1}::text as name where exists (select 1 from ${quoted(t)})`).join(' union all ');
  const r = await client.query<{ name: string }>(sql, tables);
  return r.rows.map((x) => x.name);
}
