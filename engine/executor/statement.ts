/**
 * A request of the REST interface as the SQL statement PostgREST v12.2 would run for it
 * (src/PostgREST/Query/QueryBuilder.hs, Statements.hs): reads as a SELECT over the filtered
 * table; writes as a CTE with RETURNING (for return=representation the `select=` columns and the
 * primary key, or `*`; `RETURNING 1` otherwise, so a minimal insert does not need the SELECT
 * rule) read back through the `select=` columns, the body read by
 * json_to_recordset over the columns it names only (so an unnamed NOT NULL domain column is not
 * instantiated as null); rpc with named arguments read through json_to_record, or a function of
 * one unnamed json/jsonb parameter given the whole body (resolveFunction). Every statement yields
 * one row: (page_total, body). Form by form against v12.2's source: docs/fidelity.md.
 *
 * Supabase loads pg-safeupdate for PostgREST's role: an UPDATE or DELETE with no WHERE clause
 * fails with 21000 at parse analysis. It is emulated here (the extension is not on this server)
 * for the statements PostgREST writes; it does not reach writes inside functions.
 */
import type { Json } from '../model/json.ts';
import { rpcArgText, type ApiRequest, type Filter } from '../model/request.ts';
import { embedKey, resolveRelationship, type OrderTerm } from '../model/embed.ts';
import { qualifiedName, type CachedColumn, type CachedFunction, type SchemaCache } from './schema-cache.ts';
import { sqlRoutedFunctionKey } from '../mapping/mapping.ts';
import { arrayText, ident, literal, SqlParams, type ParameterizedSql } from './sql-text.ts';

/** An answer PostgREST gives without asking the database (schema-cache errors). */
export interface PostgrestRefusal {
  status: number;
  code: string;
  message: string;
  details?: string;
  hint?: string;
}

/**
 * `query`: the statement with its values (body, arguments, filter values) as parameters, as
 * PostgREST sends it to be prepared (a repro writes the values in: sql-text.ts inlineSql).
 */
export type Statement =
  | {
      query: ParameterizedSql;
      shape: 'rows' | 'scalar' | 'void' | 'single';
      readOnly: boolean;
      singularCall?: true;
      /** A call of a function returning one composite (not a set): `schema.fn returns one type`, what the answer's row of nulls is read as (response.ts nullComposite). */
      oneComposite?: string;
    }
  | { refusal: PostgrestRefusal };

/**
 * `singularCall`: an rpc sent for one object whose function returns a set: the statement keeps its
 * row count (SINGULAR_TOTAL) and the executor holds it to one (406 PGRST116, its writes rolled back).
 */
function sqlStatement(query: ParameterizedSql, shape: 'rows' | 'scalar' | 'void' | 'single', readOnly: boolean, singularCall = false): Statement {
  return singularCall ? { query, shape, readOnly, singularCall } : { query, shape, readOnly };
}

/** pg-safeupdate's error (safeupdate.c), raised for an UPDATE or DELETE that has no WHERE clause. */
export function safeUpdateRefusal(command: 'UPDATE' | 'DELETE'): PostgrestRefusal {
  const verb = command === 'UPDATE' ? 'update' : 'delete';
  return { status: 400, code: '21000', message: `${command} requires a WHERE clause`, hint: `To ${verb} all rows, use "WHERE true" or similar.` };
}

function scalarText(value: Json): string {
  if (value === null) return 'null';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function filterSql(table: string, f: Filter, p: SqlParams): string {
  const col = `${ident(table)}.${ident(f.column)}`;
  switch (f.op) {
    case 'eq':
      return `${col} = ${p.bind(scalarText(f.value))}`;
    case 'neq':
      return `${col} <> ${p.bind(scalarText(f.value))}`;
    case 'lt':
      return `${col} < ${p.bind(scalarText(f.value))}`;
    case 'gt':
      return `${col} > ${p.bind(scalarText(f.value))}`;
    case 'like':
      return `${col} like ${p.bind(scalarText(f.value).replace(/\*/g, '%'))}`;
    case 'ilike':
      return `${col} ilike ${p.bind(scalarText(f.value).replace(/\*/g, '%'))}`;
    case 'is':
      return `${col} is ${f.value === null ? 'null' : f.value === true ? 'true' : f.value === false ? 'false' : 'unknown'}`;
    case 'in': {
      const values = (Array.isArray(f.value) ? f.value : [f.value]).map(scalarText);
      return `${col} = any (${p.bind(arrayText(values))})`;
    }
  }
}

function whereClause(table: string, filters: Filter[], p: SqlParams): string {
  return filters.length ? ` where ${filters.map((f) => filterSql(table, f, p)).join(' and ')}` : '';
}

function unknownColumn(cols: CachedColumn[] | undefined, table: string, names: string[]): PostgrestRefusal | undefined {
  // A table outside the schema cache is sent as is: Postgres answers 42P01 (v12.2 has no PGRST205).
  if (!cols) return undefined;
  for (const n of names) {
    if (!cols.some((c) => c.name === n)) return { status: 400, code: 'PGRST204', message: `Could not find the '${n}' column of '${table}' in the schema cache` };
  }
  return undefined;
}

/** Keeps a single-object write's (or set-returning call's) row count in the transaction for the check after it. */
export const SINGULAR_TOTAL = singularTotalOf('_postgrest_t');

function singularTotalOf(alias: string): string {
  return `set_config('policyfuzz.singular_total', pg_catalog.count(${alias})::text, true) as policyfuzz_singular_total`;
}

const SELECT_BODY = `select pg_catalog.count(_postgrest_t) as page_total, coalesce(json_agg(_postgrest_t), '[]')::text as body`;
const MINIMAL_BODY = `select pg_catalog.count(_postgrest_t) as page_total, null::text as body`;

/**
 * `sqlRouted`: tables (`schema.table`) and functions (`schema.fn()`) outside the exposed schemas
 * that are sent as SQL (mapping `via: "sql"`): the same statement, run under the same role and claims, without what
 * PostgREST itself adds (the schema check PGRST106, the unknown column PGRST204 — Postgres then
 * answers 42703 — and pg-safeupdate, which Supabase loads for PostgREST's connections only).
 */
export function buildStatement(request: ApiRequest, cache: SchemaCache, sqlRouted: ReadonlySet<string> = NONE): Statement {
  const schema = request.schema ?? cache.exposedSchemas[0];
  if (!cache.exposedSchemas.includes(schema)) {
    const key = qualifiedName(schema, request.kind === 'rpc' ? request.fn : request.table);
    if (request.kind === 'rpc' && sqlRouted.has(sqlRoutedFunctionKey(key))) return buildRpc(request, schema, cache, cache.outsideApiFunctions ?? new Map(), false);
    if (request.kind !== 'rpc' && sqlRouted.has(key)) return buildTableStatement(request, schema, cache, cache.outsideApi.get(key), false);
    return { refusal: { status: 406, code: 'PGRST106', message: `The schema must be one of the following: ${cache.exposedSchemas.join(', ')}` } };
  }
  if (request.kind === 'rpc') return buildRpc(request, schema, cache, cache.functions, true);
  return buildTableStatement(request, schema, cache, cache.tables.get(qualifiedName(schema, request.table)), true);
}

const NONE: ReadonlySet<string> = new Set();

/**
 * A table's request as SQL. `columns`: the table's, when known; `rest`: PostgREST sends it (its
 * unknown-column check and pg-safeupdate apply), else it is sent as SQL directly.
 */
function buildTableStatement(request: Exclude<ApiRequest, { kind: 'rpc' }>, schema: string, cache: SchemaCache, columns: CachedColumn[] | undefined, rest: boolean): Statement {
  const target = `${ident(schema)}.${ident(request.table)}`;
  const t = request.table;
  const p = new SqlParams();
  // PostgREST answers an unknown column itself (PGRST204); sent as SQL, Postgres answers 42703.
  const missingColumn = (names: string[]) => (rest ? unknownColumn(columns, t, names) : undefined);
  // Parse analysis names an unknown table (42P01) before pg-safeupdate's hook runs.
  const safeUpdate = rest && columns !== undefined;
  switch (request.kind) {
    case 'select': {
      const cols = request.columns === '*' ? [`${ident(t)}.*`] : request.columns.map((c) => `${ident(t)}.${ident(c)}`);
      const embedded = embedSql(request, schema, cache);
      if ('refusal' in embedded) return embedded;
      const select = [...cols, ...embedded.selects].join(', ');
      const sql = `${SELECT_BODY} from (select ${select} from ${target}${embedded.joins.map((j) => ` ${j}`).join('')}${whereClause(t, request.filters, p)}${orderSql(target, request.order)}${limitSql(cache)}) _postgrest_t`;
      return sqlStatement(p.statement(sql), request.single ? 'single' : 'rows', true);
    }
    case 'insert': {
      const keys = [...new Set(request.rows.flatMap((r) => Object.keys(r)))];
      const conflict = request.upsert ? (request.upsert.onConflict ?? primaryKeyOf(columns)) : [];
      const missing = missingColumn([...keys, ...conflict]);
      if (missing) return { refusal: missing };
      const merge = request.upsert?.resolution === 'merge-duplicates' && conflict.length > 0;
      const colList = keys.map(ident).join(', ');
      const returning = returningSql(request, target, columns);
      // QueryBuilder.hs mutatePlanToQuery Insert: a merge counts inserted rows in pgrst.inserted
      // (+1 per body row, -1 per conflict updated) for its 201/200; a body naming no column is
      // rows of defaults (SqlFragment.hs fromJsonBodyF: json_array_elements, `SELECT  FROM`) and
      // its merge DO NOTHING.
      const counted = merge ? ` where ${insertedCounter(true)}` : '';
      const onConflict = !conflict.length
        ? ''
        : ` on conflict(${conflict.map(ident).join(', ')}) ` +
          (request.upsert!.resolution === 'ignore-duplicates' || keys.length === 0
            ? 'do nothing'
            : `do update set ${keys.map((k) => `${ident(k)} = excluded.${ident(k)}`).join(', ')} where ${insertedCounter(false)}`);
      const insert = keys.length
        ? `insert into ${target} (${colList}) select ${keys.map((k) => `pgrst_body.${ident(k)}`).join(', ')} from ${request.missing === 'default' ? bodyWithDefaults(columns, request.rows, keys, p) : bodyRecordset(columns, request.rows, keys, p)}${counted}${onConflict} ${returning}`
        : `insert into ${target} select from json_array_elements(${p.bind(JSON.stringify(request.rows))}::json) pgrst_body${counted}${onConflict} ${returning}`;
      return sqlStatement(p.statement(withSource(insert, request, merge)), writeShape(request), false);
    }
    case 'update': {
      const keys = Object.keys(request.patch);
      const missing = missingColumn(keys);
      if (missing) return { refusal: missing };
      const returning = returningSql(request, target, columns);
      if (keys.length === 0) {
        // QueryBuilder.hs mutatePlanToQuery Update, `null uCols`: "SELECT <returnings, or NULL> FROM
        // t WHERE false" (the filters left out; no UPDATE privilege needed; no row touched).
        const returned = returningSql(request, target, columns).replace(/^returning /, '');
        const selected = returned === '1' ? 'null' : returned.split(`${target}.`).join(`${ident(t)}.`);
        return sqlStatement(p.statement(withSource(`select ${selected} from ${target} where false`, request)), writeShape(request), false);
      }
      if (request.filters.length === 0 && safeUpdate) return { refusal: safeUpdateRefusal('UPDATE') };
      const set = keys.map((k) => `${ident(k)} = pgrst_body.${ident(k)}`).join(', ');
      const update = `update ${target} set ${set} from (select * from ${bodyRecordset(columns, [request.patch], keys, p)}) pgrst_body${whereClause(t, request.filters, p)} ${returning}`;
      return sqlStatement(p.statement(withSource(update, request)), writeShape(request), false);
    }
    case 'delete': {
      if (request.filters.length === 0 && safeUpdate) return { refusal: safeUpdateRefusal('DELETE') };
      const del = `delete from ${target}${whereClause(t, request.filters, p)} ${returningSql(request, target, columns)}`;
      return sqlStatement(p.statement(withSource(del, request)), writeShape(request), false);
    }
  }
}

/**
 * db-max-rows on a read plan's node, as v12.2 writes it (Plan.hs treeRestrictRange gives every
 * node of a read, embeds included, the range; SqlFragment.hs limitOffsetF, lines 482-487:
 * `LIMIT n OFFSET 0`). Writes are not limited (treeRestrictRange: `ActRelationMut → Right request`).
 */
function limitSql(cache: SchemaCache): string {
  return cache.maxRows === undefined ? '' : ` limit ${cache.maxRows} offset 0`;
}

/**
 * A read's `order=` (top level: `"public"."notes"."body" desc`) or an embed's (in its subquery) as
 * ORDER BY (QueryBuilder.hs readPlanToQuery orderF; SqlFragment.hs pgFmtOrderTerm, lines
 * 337-352: the direction and NULLS FIRST/LAST only when the request names them).
 */
function orderSql(alias: string, order: readonly OrderTerm[] | undefined): string {
  if (!order?.length) return '';
  return ` order by ${order.map((t) => [`${alias}.${ident(t.column)}`, ...(t.direction ? [t.direction] : []), ...(t.nulls ? [`nulls ${t.nulls}`] : [])].join(' ')).join(', ')}`;
}

/**
 * A read's embeds as v12.2 joins them (QueryBuilder.hs, lines 64-108): each a LATERAL subquery
 * over the embedded table aliased `<table>_1` (Plan.hs addRels, 466-477), joined on its foreign
 * key, each column pair `AND`ed in the key's order (pgFmtJoinCondition, SqlFragment.hs 409-411),
 * under the aggregate alias `<parent>_<alias or target>_1`: to-one `row_to_json(agg.*)::jsonb`,
 * to-many `COALESCE(agg.agg, '[]')` over `json_agg(agg)::jsonb`; `!inner` is an INNER JOIN,
 * to-many `ON agg IS NOT NULL`. Many-to-many: the embedded table unaliased beside its junction
 * (QueryBuilder.hs fromF, 269-279: `FROM tags, note_tags`), the junction joined to both sides
 * (Plan.hs getJoinConditions, 501-512). The relationship is the catalog's, found as PostgREST
 * finds it (embed.ts resolveRelationship), with its PGRST200/PGRST201 (Error.hs 212-222).
 */
function embedSql(request: Extract<ApiRequest, { kind: 'select' }>, schema: string, cache: SchemaCache): { selects: string[]; joins: string[] } | { refusal: PostgrestRefusal } {
  const selects: string[] = [];
  const joins: string[] = [];
  const parentKey = qualifiedName(schema, request.table);
  const parent = `${ident(schema)}.${ident(request.table)}`;
  const table = (key: string) => `${ident(schema)}.${ident(key.slice(schema.length + 1))}`;
  // PostgREST looks a relationship up by its origin and the request's schema (Plan.hs findRel: `HM.lookup (origin, schema)`): tables of this schema only.
  const inSchema = (key: string) => key.startsWith(`${schema}.`);
  const edges = request.embeds?.length ? (cache.relationships ?? []).filter((e) => inSchema(e.table) && inSchema(e.references)) : [];
  for (const embed of request.embeds ?? []) {
    const rel = resolveRelationship(edges, parentKey, embed.table, embed.hint, (n) => qualifiedName(schema, n));
    if ('code' in rel && rel.code === 'PGRST200') return { refusal: { status: 400, code: 'PGRST200', message: `Could not find a relationship between '${request.table}' and '${embed.table}' in the schema cache` } };
    if ('code' in rel) return { refusal: { status: 300, code: 'PGRST201', message: `Could not embed because more than one relationship was found for '${request.table}' and '${embed.table}'`, hint: rel.hint } };
    const name = embedKey(embed);
    const agg = ident(`${request.table}_${name}_1`);
    const embedded = table(rel.table);
    let sub: string;
    if (rel.junction) {
      const junction = table(rel.junction.table);
      const j = rel.junction;
      const cols = embed.columns === '*' ? `${embedded}.*` : embed.columns.map((c) => `${embedded}.${ident(c)}`).join(', ');
      const on = [...rel.embeddedColumns.map((c, i) => `${embedded}.${ident(c)} = ${junction}.${ident(j.targetColumns[i])}`), ...j.columns.map((c, i) => `${junction}.${ident(c)} = ${parent}.${ident(rel.parentColumns[i])}`)].join(' and ');
      sub = `select ${cols} from ${embedded}, ${junction} where ${on}${orderSql(embedded, embed.order)}${limitSql(cache)}`;
    } else {
      const alias = ident(`${rel.table.slice(schema.length + 1)}_1`);
      const cols = embed.columns === '*' ? `${alias}.*` : embed.columns.map((c) => `${alias}.${ident(c)}`).join(', ');
      const on = rel.embeddedColumns.map((c, i) => `${alias}.${ident(c)} = ${parent}.${ident(rel.parentColumns[i])}`).join(' and ');
      sub = `select ${cols} from ${embedded} as ${alias} where ${on}${orderSql(alias, embed.order)}${limitSql(cache)}`;
    }
    const join = embed.inner ? 'inner join lateral' : 'left join lateral';
    if (rel.toOne) {
      selects.push(`row_to_json(${agg}.*)::jsonb as ${ident(name)}`);
      joins.push(`${join} ( ${sub} ) as ${agg} on true`);
    } else {
      selects.push(`coalesce( ${agg}.${agg}, '[]') as ${ident(name)}`);
      joins.push(`${join} ( select json_agg(${agg})::jsonb as ${agg} from (${sub} ) as ${agg} ) as ${agg} on ${embed.inner ? `${agg} is not null` : 'true'}`);
    }
  }
  return { selects, joins };
}

/** The body as PostgREST reads it: json_to_recordset typed by the named columns only. */
function bodyRecordset(columns: CachedColumn[] | undefined, rows: Json[], keys: string[], p: SqlParams): string {
  const cols = columns ?? [];
  const typeOf = (k: string) => cols.find((c) => c.name === k)?.type ?? 'text';
  return `json_to_recordset(${p.bind(JSON.stringify(rows))}::json) as pgrst_body(${keys.map((k) => `${ident(k)} ${typeOf(k)}`).join(', ')})`;
}

/**
 * The body under `Prefer: missing=default`, as v12.2 reads it (SqlFragment.hs fromJsonBodyF with
 * `includeDefaults`, 300-331): the payload as jsonb, each object laid over a jsonb_build_object of
 * the defaults of the columns the body names (`defaults || elem`: a key the object has wins, even
 * null), then jsonb_to_recordset. Every default is evaluated for every object, given or not (a
 * `nextval` is spent, a default the role may not evaluate refuses the insert), and its value
 * travels through jsonb to the column's type. A column with no default (schema-cache.ts
 * defaultSql) is NULL where an object lacks it, as without the preference.
 */
function bodyWithDefaults(columns: CachedColumn[] | undefined, rows: Json[], keys: string[], p: SqlParams): string {
  const cols = columns ?? [];
  const typeOf = (k: string) => cols.find((c) => c.name === k)?.type ?? 'text';
  const defaults = keys.flatMap((k) => {
    const expression = cols.find((c) => c.name === k)?.defaultSql;
    return expression === undefined ? [] : [`${literal(k)}, ${expression}`];
  });
  const withDefaults = `lateral (select jsonb_agg(jsonb_build_object(${defaults.join(',')}) || elem) as val from jsonb_array_elements(pgrst_payload.json_data) elem) pgrst_json_defs`;
  const parsed = `lateral (select ${keys.map((k) => ident(k)).join(', ')} from jsonb_to_recordset(pgrst_json_defs.val) as _(${keys.map((k) => `${ident(k)} ${typeOf(k)}`).join(', ')})) pgrst_body`;
  return `(select ${p.bind(JSON.stringify(rows))}::jsonb as json_data) pgrst_payload, ${withDefaults}, ${parsed}`;
}

type WriteRequest = Extract<ApiRequest, { returning: unknown }>;

/**
 * A write's RETURNING as PostgREST v12.2 writes it (SqlFragment.hs returningF): `RETURNING 1`
 * without return=representation; with it, `RETURNING "s"."t".*` for `select=*` (or no select),
 * else the `select=` columns with the primary key's added, deduplicated and in name order
 * (Plan.hs inferColsEmbedNeeds: `S.toList . S.fromList $ fldNames ++ fkCols ++ pkCols`).
 */
function returningSql(request: WriteRequest, target: string, columns: CachedColumn[] | undefined): string {
  if (request.returning === 'minimal') return 'returning 1';
  if (!request.columns || request.columns.includes('*')) return `returning ${target}.*`;
  const pk = (columns ?? []).filter((c) => c.primaryKey).map((c) => c.name);
  const names = [...new Set([...request.columns, ...pk])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `returning ${names.map((n) => `${target}.${ident(n)}`).join(', ')}`;
}

/**
 * The write's CTE, read back through its `select=` (Statements.hs prepareWrite: `FROM (selectQuery)
 * _postgrest_t`, the read plan over pgrst_source), or `select 1` for return=minimal.
 */
function withSource(write: string, request: WriteRequest, merge = false): string {
  // Statements.hs prepareWrite: `nullif(current_setting('pgrst.inserted', true),'')::int AS response_inserted` for a merge.
  // For a single-object write, the harness's own column (not PostgREST's): the row count kept for
  // the executor's check after the statement (case-transaction.ts SINGULAR_CHECK), as
  // failNotSingular checks page_total before PostgREST commits.
  const inserted = (merge ? `, nullif(current_setting('pgrst.inserted', true), '')::int as response_inserted` : '') + (request.single || maxAffectedOf(request) !== undefined ? `, ${SINGULAR_TOTAL}` : '');
  if (request.returning === 'minimal') return `with pgrst_source as (${write}) ${MINIMAL_BODY}${inserted} from (select 1 from pgrst_source) _postgrest_t`;
  const read = !request.columns || request.columns.includes('*') ? '*' : request.columns.map((c) => `pgrst_source.${ident(c)}`).join(', ');
  return `with pgrst_source as (${write}) ${SELECT_BODY}${inserted} from (select ${read} from pgrst_source) _postgrest_t`;
}

/** A write sent for one object answers 'single' (the executor then holds it to exactly one row). */
function writeShape(request: WriteRequest): 'rows' | 'single' {
  return request.single ? 'single' : 'rows';
}

/** `Prefer: handling=strict, max-affected=n` of a PATCH or DELETE. */
export function maxAffectedOf(request: ApiRequest): number | undefined {
  return request.kind === 'update' || request.kind === 'delete' ? request.maxAffected : undefined;
}

/** SqlFragment.hs addConfigPgrstInserted: counts a body row (+1) or takes back a conflict updated (-1). */
function insertedCounter(add: boolean): string {
  const [symbol, num] = add ? ['+', '0'] : ['-', '-1'];
  return `set_config('pgrst.inserted', (coalesce(nullif(current_setting('pgrst.inserted', true), '')::int, 0) ${symbol} 1)::text, true) <> '${num}'`;
}

function primaryKeyOf(columns: CachedColumn[] | undefined): string[] {
  return (columns ?? []).filter((c) => c.primaryKey).map((c) => c.name);
}

/** Plan.hs findProc matchesParams: every argument key a parameter's name, every parameter without a default among the keys. */
function takesArguments(f: CachedFunction, keys: readonly string[]): boolean {
  return keys.every((k) => f.args.some((a) => a.name === k)) && f.args.every((a) => a.hasDefault || keys.includes(a.name));
}

/** Plan.hs findProc hasSingleUnnamedParam: one parameter, json or jsonb (whatever its name), for a POST with a JSON body. */
function takesWholeBody(f: CachedFunction): boolean {
  return f.args.length === 1 && (f.args[0].type === 'json' || f.args[0].type === 'jsonb');
}

/**
 * The overload PostgREST v12.2 calls for these argument keys (Plan.hs findProc, lines 211-256):
 * the one whose parameters the keys match; with none, for a POST, the one of a single json or
 * jsonb parameter (called with the whole body: a `handle(jsonb)`). Two that match alike are
 * AmbiguousRpc (`ambiguous`); none, undefined.
 */
function resolveFunction(candidates: CachedFunction[], keys: string[], post: boolean): CachedFunction | { ambiguous: CachedFunction[] } | undefined {
  const matching = candidates.filter((f) => takesArguments(f, keys));
  const chosen = matching.length ? matching : post ? candidates.filter(takesWholeBody) : [];
  if (chosen.length > 1) return { ambiguous: chosen };
  return chosen[0];
}

/** Error.hs AmbiguousRpc (PGRST203, 300): the candidates with their parameters. */
function ambiguousFunctionRefusal(candidates: CachedFunction[]): PostgrestRefusal {
  const signature = (f: CachedFunction) => `${f.schema}.${f.name}(${f.args.map((a) => `${a.name} => ${a.type}`).join(', ')})`;
  return {
    status: 300,
    code: 'PGRST203',
    message: `Could not choose the best candidate function between: ${candidates.map(signature).join(', ')}`,
    hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
  };
}

/**
 * PostgREST v12.2's answer to a call no exposed function takes (Error.hs NoRpc): the keys sorted,
 * " without parameters" for none; a POST with a JSON body also searched for a function of one
 * unnamed json parameter. Its hint (a near name, Error.hs noRpcHint's fuzzy match) is not modelled.
 */
export function noFunctionRefusal(qualified: string, keys: readonly string[], post: boolean): PostgrestRefusal {
  const sorted = [...keys].sort();
  const params = (p: string) => (sorted.length ? p : ' without parameters');
  return {
    status: 404,
    code: 'PGRST202',
    message: `Could not find the function ${qualified}${params(`(${sorted.join(', ')})`)} in the schema cache`,
    details: `Searched for the function ${qualified}${params(` with parameter${sorted.length > 1 ? 's' : ''} ${sorted.join(', ')}`)}${post ? ' or with a single unnamed json/jsonb parameter' : ''}, but no matches were found in the schema cache.`,
  };
}

/**
 * An rpc call as SQL. `functions`: where the function is looked up; `rest`: PostgREST sends it
 * (an unknown one is its PGRST202), else it is sent as SQL directly (Postgres' 42883) with the
 * same statement and transaction mode.
 */
function buildRpc(request: Extract<ApiRequest, { kind: 'rpc' }>, schema: string, cache: SchemaCache, functions: Map<string, CachedFunction[]>, rest: boolean): Statement {
  const bodyKeys = Object.keys(request.args);
  const candidates = functions.get(qualifiedName(schema, request.fn)) ?? [];
  // Sent as SQL, Postgres resolves the call by its named arguments: PostgREST's fallback and ambiguity are not its.
  const found = rest ? resolveFunction(candidates, bodyKeys, request.get !== true) : candidates.find((f) => takesArguments(f, bodyKeys));
  if (!found && !rest) return { refusal: { status: 404, code: '42883', message: `function ${schema}.${request.fn}(${bodyKeys.sort().join(', ')}) does not exist` } };
  if (!found) return { refusal: noFunctionRefusal(`${schema}.${request.fn}`, bodyKeys, request.get !== true) };
  if ('ambiguous' in found) return { refusal: ambiguousFunctionRefusal(found.ambiguous) };
  const fn = found;
  const p = new SqlParams();
  // Plan.hs callPlan: one unnamed parameter takes the whole body, positionally (OnePosParam:
  // `fn($1::jsonb)`, SqlFragment.hs singleParameter); otherwise the parameters the body names, by name.
  const wholeBody = fn.args.length === 1 && fn.args[0].name === '';
  const keys = wholeBody ? [] : bodyKeys.filter((k) => fn.args.some((a) => a.name === k));
  const call = wholeBody
    ? `${ident(fn.schema)}.${ident(fn.name)}(${p.bind(JSON.stringify(request.args))}::${fn.args[0].type})`
    : `${ident(fn.schema)}.${ident(fn.name)}(${keys.map((k) => `${ident(k)} := pgrst_args.${ident(k)}`).join(', ')})`;
  // GET: the query parameters, each text (ApiRequest.hs builds the payload from the query string).
  const args = request.get ? Object.fromEntries(Object.entries(request.args).map(([k, v]) => [k, rpcArgText(v)])) : request.args;
  const argsRecord = keys.length
    ? `json_to_record(${p.bind(JSON.stringify(args))}::json) as pgrst_args(${keys.map((k) => `${ident(k)} ${fn.args.find((a) => a.name === k)!.type}`).join(', ')})`
    : '';
  const from = argsRecord ? ` from ${argsRecord}` : '';
  // Plan.hs callReadPlan txMode: a GET is read-only; a POST is unless the function is VOLATILE.
  const readOnly = request.get === true || fn.volatility !== 'volatile';
  // `.rpc().single()` (Accept: application/vnd.pgrst.object+json): Statements.hs prepareCall counts
  // a function returning one value or row as page_total 1 (never PGRST116, its body as without
  // it); a set's rows are counted, held to one after the call (Query.hs DbCall failNotSingular),
  // and the body is the first row as SqlFragment.hs asJsonSingleF writes it (204-207:
  // `json_agg(_postgrest_t)->0`, so a set of scalars answers `{"pgrst_scalar": v}`, its row).
  if (request.single && fn.returns === 'setof-scalar') {
    return sqlStatement(p.statement(`select pg_catalog.count(pgrst_call) as page_total, coalesce((json_agg(pgrst_call) -> 0)::text, 'null') as body, ${singularTotalOf('pgrst_call')} from (select ${call} as pgrst_scalar${from}${limitSql(cache)}) pgrst_call`), 'scalar', readOnly, true);
  }
  if (request.single && fn.returns === 'setof-composite') {
    return sqlStatement(p.statement(`select pg_catalog.count(_postgrest_t) as page_total, coalesce((json_agg(_postgrest_t) -> 0)::text, 'null') as body, ${SINGULAR_TOTAL} from (select pgrst_call.* from ${argsRecord ? `${argsRecord}, ` : ''}${call} pgrst_call${limitSql(cache)}) _postgrest_t`), 'scalar', readOnly, true);
  }
  switch (fn.returns) {
    case 'void':
      return sqlStatement(p.statement(`select 1::bigint as page_total, null::text as body from (select ${call}${from}) pgrst_call`), 'void', readOnly);
    case 'scalar':
      return sqlStatement(p.statement(`select 1::bigint as page_total, to_json(pgrst_call.pgrst_scalar)::text as body from (select ${call} as pgrst_scalar${from}) pgrst_call`), 'scalar', readOnly);
    case 'setof-scalar':
      return sqlStatement(p.statement(`select pg_catalog.count(*) as page_total, coalesce(json_agg(pgrst_call.pgrst_scalar), '[]')::text as body from (select ${call} as pgrst_scalar${from}${limitSql(cache)}) pgrst_call`), 'rows', readOnly);
    case 'composite':
      return {
        ...(sqlStatement(p.statement(`select pg_catalog.count(_postgrest_t) as page_total, coalesce((json_agg(_postgrest_t) -> 0)::text, 'null') as body from (select pgrst_call.* from ${argsRecord ? `${argsRecord}, ` : ''}${call} pgrst_call) _postgrest_t`), 'scalar', readOnly) as Exclude<Statement, { refusal: unknown }>),
        oneComposite: `${fn.schema}.${fn.name} returns one ${fn.returnType ?? 'composite'}`,
      };
    case 'setof-composite':
      // The function's result read through a read plan: limited by db-max-rows (Plan.hs callReadPlan → readPlan).
      return sqlStatement(p.statement(`${SELECT_BODY} from (select pgrst_call.* from ${argsRecord ? `${argsRecord}, ` : ''}${call} pgrst_call${limitSql(cache)}) _postgrest_t`), 'rows', readOnly);
  }
}
