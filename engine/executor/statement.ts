/**
 * A request of the REST interface as the SQL statement PostgREST v12.2 would run for it
 * (src/PostgREST/Query/QueryBuilder.hs, Statements.hs): reads as a SELECT over the filtered
 * table; writes as a CTE with RETURNING (all columns for return=representation, `RETURNING 1`
 * otherwise, so a minimal insert does not need the SELECT rule), the body read by
 * json_to_recordset over the columns it names only (so an unnamed NOT NULL domain column is not
 * instantiated as null); rpc with named arguments read through json_to_record. Every statement
 * yields one row: (page_total, body).
 *
 * Supabase loads pg-safeupdate for PostgREST's role: an UPDATE or DELETE with no WHERE clause
 * fails with 21000 at parse analysis. It is emulated here (the extension is not on this server)
 * for the statements PostgREST writes; it does not reach writes inside functions.
 */
import type { Json } from '../model/json.ts';
import type { ApiRequest, Filter } from '../model/request.ts';
import { qualifiedName, type CachedFunction, type SchemaCache } from './schema-cache.ts';
import { arrayLiteral, ident, literal } from './sql-text.ts';

/** An answer PostgREST gives without asking the database (schema-cache errors). */
export interface PostgrestRefusal {
  status: number;
  code: string;
  message: string;
  hint?: string;
}

export type Statement = { sql: string; shape: 'rows' | 'scalar' | 'void' | 'single'; readOnly: boolean } | { refusal: PostgrestRefusal };

/** pg-safeupdate's error (safeupdate.c), raised for an UPDATE or DELETE that has no WHERE clause. */
export function safeUpdateRefusal(command: 'UPDATE' | 'DELETE'): PostgrestRefusal {
  const verb = command === 'UPDATE' ? 'update' : 'delete';
  return { status: 400, code: '21000', message: `${command} requires a WHERE clause`, hint: `To ${verb} all rows, use "WHERE true" or similar.` };
}

function scalarText(value: Json): string {
  if (value === null) return 'null';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function filterSql(table: string, f: Filter): string {
  const col = `${ident(table)}.${ident(f.column)}`;
  switch (f.op) {
    case 'eq':
      return `${col} = ${literal(scalarText(f.value))}`;
    case 'neq':
      return `${col} <> ${literal(scalarText(f.value))}`;
    case 'lt':
      return `${col} < ${literal(scalarText(f.value))}`;
    case 'gt':
      return `${col} > ${literal(scalarText(f.value))}`;
    case 'like':
      return `${col} like ${literal(scalarText(f.value).replace(/\*/g, '%'))}`;
    case 'ilike':
      return `${col} ilike ${literal(scalarText(f.value).replace(/\*/g, '%'))}`;
    case 'is':
      return `${col} is ${f.value === null ? 'null' : f.value === true ? 'true' : f.value === false ? 'false' : 'unknown'}`;
    case 'in': {
      const values = (Array.isArray(f.value) ? f.value : [f.value]).map(scalarText);
      return `${col} = any (${arrayLiteral(values)})`;
    }
  }
}

function whereClause(table: string, filters: Filter[]): string {
  return filters.length ? ` where ${filters.map((f) => filterSql(table, f)).join(' and ')}` : '';
}

function missingColumn(cache: SchemaCache, key: string, table: string, names: string[]): PostgrestRefusal | undefined {
  const cols = cache.tables.get(key);
  // A table outside the schema cache is sent as is: Postgres answers 42P01 (v12.2 has no PGRST205).
  if (!cols) return undefined;
  for (const n of names) {
    if (!cols.some((c) => c.name === n)) return { status: 400, code: 'PGRST204', message: `Could not find the '${n}' column of '${table}' in the schema cache` };
  }
  return undefined;
}

const SELECT_BODY = `select pg_catalog.count(_postgrest_t) as page_total, coalesce(json_agg(_postgrest_t), '[]')::text as body`;
const MINIMAL_BODY = `select pg_catalog.count(_postgrest_t) as page_total, null::text as body`;

export function buildStatement(request: ApiRequest, cache: SchemaCache): Statement {
  const schema = request.schema ?? cache.exposedSchemas[0];
  if (!cache.exposedSchemas.includes(schema)) {
    return { refusal: { status: 406, code: 'PGRST106', message: `The schema must be one of the following: ${cache.exposedSchemas.join(', ')}` } };
  }
  if (request.kind === 'rpc') return buildRpc(request, schema, cache);
  const key = qualifiedName(schema, request.table);
  const target = `${ident(schema)}.${ident(request.table)}`;
  const t = request.table;
  switch (request.kind) {
    case 'select': {
      const cols = request.columns === '*' ? `${ident(t)}.*` : request.columns.map((c) => `${ident(t)}.${ident(c)}`).join(', ');
      const sql = `${SELECT_BODY} from (select ${cols} from ${target}${whereClause(t, request.filters)}) _postgrest_t`;
      return { sql, shape: request.single ? 'single' : 'rows', readOnly: true };
    }
    case 'insert': {
      const keys = [...new Set(request.rows.flatMap((r) => Object.keys(r)))];
      const missing = missingColumn(cache, key, t, keys);
      if (missing) return { refusal: missing };
      const colList = keys.map(ident).join(', ');
      const returning = request.returning === 'representation' ? `returning ${target}.*` : 'returning 1';
      const insert = keys.length
        ? `insert into ${target} (${colList}) select ${keys.map((k) => `pgrst_body.${ident(k)}`).join(', ')} from ${bodyRecordset(cache, key, request.rows, keys)} ${returning}`
        : `insert into ${target} default values ${returning}`;
      return { sql: withSource(insert, request.returning === 'representation'), shape: 'rows', readOnly: false };
    }
    case 'update': {
      const keys = Object.keys(request.patch);
      const missing = missingColumn(cache, key, t, keys);
      if (missing) return { refusal: missing };
      const returning = request.returning === 'representation' ? `returning ${target}.*` : 'returning 1';
      if (keys.length === 0) {
        // PostgREST answers an empty PATCH body without touching rows.
        return { sql: `select 0::bigint as page_total, ${request.returning === 'representation' ? `'[]'` : 'null'}::text as body`, shape: 'rows', readOnly: false };
      }
      // Parse analysis names an unknown table (42P01) before pg-safeupdate's hook runs.
      if (request.filters.length === 0 && cache.tables.has(key)) return { refusal: safeUpdateRefusal('UPDATE') };
      const set = keys.map((k) => `${ident(k)} = pgrst_body.${ident(k)}`).join(', ');
      const update = `update ${target} set ${set} from (select * from ${bodyRecordset(cache, key, [request.patch], keys)}) pgrst_body${whereClause(t, request.filters)} ${returning}`;
      return { sql: withSource(update, request.returning === 'representation'), shape: 'rows', readOnly: false };
    }
    case 'delete': {
      if (request.filters.length === 0 && cache.tables.has(key)) return { refusal: safeUpdateRefusal('DELETE') };
      const returning = request.returning === 'representation' ? `returning ${target}.*` : 'returning 1';
      const del = `delete from ${target}${whereClause(t, request.filters)} ${returning}`;
      return { sql: withSource(del, request.returning === 'representation'), shape: 'rows', readOnly: false };
    }
  }
}

/** The body as PostgREST reads it: json_to_recordset typed by the named columns only. */
function bodyRecordset(cache: SchemaCache, key: string, rows: Json[], keys: string[]): string {
  const cols = cache.tables.get(key) ?? [];
  const typeOf = (k: string) => cols.find((c) => c.name === k)?.type ?? 'text';
  return `json_to_recordset(${literal(JSON.stringify(rows))}::json) as pgrst_body(${keys.map((k) => `${ident(k)} ${typeOf(k)}`).join(', ')})`;
}

function withSource(write: string, representation: boolean): string {
  return representation
    ? `with pgrst_source as (${write}) ${SELECT_BODY} from (select * from pgrst_source) _postgrest_t`
    : `with pgrst_source as (${write}) ${MINIMAL_BODY} from (select 1 from pgrst_source) _postgrest_t`;
}

/** PostgREST picks the overload whose argument names match the body's keys. */
function resolveFunction(candidates: CachedFunction[], keys: string[]): CachedFunction | undefined {
  return candidates.find(
    (f) => keys.every((k) => f.args.some((a) => a.name === k)) && f.args.every((a) => a.hasDefault || keys.includes(a.name)),
  );
}

function buildRpc(request: Extract<ApiRequest, { kind: 'rpc' }>, schema: string, cache: SchemaCache): Statement {
  const keys = Object.keys(request.args);
  const fn = resolveFunction(cache.functions.get(qualifiedName(schema, request.fn)) ?? [], keys);
  if (!fn) {
    return {
      refusal: {
        status: 404,
        code: 'PGRST202',
        message: `Could not find the function ${schema}.${request.fn}(${keys.sort().join(', ')}) in the schema cache`,
      },
    };
  }
  const call = `${ident(fn.schema)}.${ident(fn.name)}(${keys.map((k) => `${ident(k)} := pgrst_args.${ident(k)}`).join(', ')})`;
  const argsRecord = keys.length
    ? `json_to_record(${literal(JSON.stringify(request.args))}::json) as pgrst_args(${keys.map((k) => `${ident(k)} ${fn.args.find((a) => a.name === k)!.type}`).join(', ')})`
    : '';
  const from = argsRecord ? ` from ${argsRecord}` : '';
  const readOnly = fn.volatility !== 'volatile';
  switch (fn.returns) {
    case 'void':
      return { sql: `select 1::bigint as page_total, null::text as body from (select ${call}${from}) pgrst_call`, shape: 'void', readOnly };
    case 'scalar':
      return { sql: `select 1::bigint as page_total, to_json(pgrst_call.pgrst_scalar)::text as body from (select ${call} as pgrst_scalar${from}) pgrst_call`, shape: 'scalar', readOnly };
    case 'setof-scalar':
      return { sql: `select pg_catalog.count(*) as page_total, coalesce(json_agg(pgrst_call.pgrst_scalar), '[]')::text as body from (select ${call} as pgrst_scalar${from}) pgrst_call`, shape: 'rows', readOnly };
    case 'composite':
      return { sql: `select pg_catalog.count(_postgrest_t) as page_total, coalesce((json_agg(_postgrest_t) -> 0)::text, 'null') as body from (select pgrst_call.* from ${argsRecord ? `${argsRecord}, ` : ''}${call} pgrst_call) _postgrest_t`, shape: 'scalar', readOnly };
    case 'setof-composite':
      return { sql: `${SELECT_BODY} from (select pgrst_call.* from ${argsRecord ? `${argsRecord}, ` : ''}${call} pgrst_call) _postgrest_t`, shape: 'rows', readOnly };
  }
}
