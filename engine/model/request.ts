/**
 * The data layer's REST interface (spec §4) as plain data: what a caller asks for, before any
 * SQL. The harness executes these as PostgREST would; the model predicts their outcome.
 */
import type { Json, Row } from './json.ts';
import { embedKey, orderTermText, type OrderTerm } from './embed.ts';

/** PostgREST filter operators that policyfuzz generates. `like`/`ilike` accept `*` for `%`. */
export type FilterOp = 'eq' | 'neq' | 'is' | 'in' | 'like' | 'ilike' | 'lt' | 'gt';

export interface Filter {
  column: string;
  op: FilterOp;
  /** `is` takes null/true/false; `in` takes a list; the rest a scalar. */
  value: Json;
}

/**
 * `Prefer: return=…`. headers-only (v12.2 Preferences.hs HeadersOnly) answers no body (201 with a
 * Location for an insert, else 204) but its statement RETURNs the columns as representation does
 * (Plan.hs: returnings are empty only for return=minimal or no return=), so the new rows must
 * pass SELECT just the same.
 */
export type Returning = 'representation' | 'minimal' | 'headers-only';

/**
 * A write's `select=` (supabase-js `.insert(row).select('id')`): the columns a
 * return=representation answer carries. Absent: every column (`select=*`). Ignored with
 * return=minimal, as PostgREST ignores it (Plan.hs: no RETURNING columns without representation).
 */
export type WriteColumns = string[];

/**
 * An upsert (supabase-js `.upsert(rows, { onConflict, ignoreDuplicates })`): a POST with
 * `Prefer: resolution=merge-duplicates` or `resolution=ignore-duplicates` and `on_conflict=`
 * (absent: the primary key, PostgREST v12.2 Plan.hs `confCols = fromMaybe pkCols qsOnConflict`),
 * run as `INSERT … ON CONFLICT (cols) DO UPDATE SET c = EXCLUDED.c, … | DO NOTHING`
 * (Query/QueryBuilder.hs mutatePlanToQuery Insert). A merge of a body naming no columns is
 * DO NOTHING there too.
 */
export interface Upsert {
  resolution: 'merge-duplicates' | 'ignore-duplicates';
  onConflict?: string[];
}

/**
 * `single`: `Accept: application/vnd.pgrst.object+json` (supabase-js `.single()`): the answer is
 * one object; 0 or 2+ rows read, or affected by a write, answer 406 PGRST116 and the write is
 * rolled back (PostgREST v12.2 Query.hs failNotSingular, for reads, inserts, updates, deletes).
 * `maxAffected`: `Prefer: handling=strict, max-affected=n` on a PATCH or DELETE (v12.2
 * Preferences.hs; Query.hs failExceedsMaxAffectedPref): more than n rows affected answers 400
 * PGRST124 and the write is rolled back. Without handling=strict PostgREST ignores it.
 */
/**
 * An embedded resource in a read's `select=`: `remarks(*)`, `remarks(id,body)`, `remarks!inner(*)`
 * (supabase-js `.select('*, remarks(*)')`). PostgREST v12.2 finds the relationship from foreign
 * keys (embed.ts) and reads the embedded table in a LATERAL subquery of the same statement, so
 * under the caller's role and that table's own row rules; `inner` drops the parents whose embed
 * is empty (to-many) or null (to-one). Same schema as the parent only.
 */
export interface Embed {
  /**
   * The target as written: the embedded table (`tags`), or, for a self-referencing key's
   * many-to-one, the key's column (`parent_id`); embed.ts resolveRelationship reads it as PostgREST does.
   */
  table: string;
  columns: string[] | '*';
  inner?: boolean;
  /** `author:users(*)`: the key the embed has in each parent row (default: `table`). */
  alias?: string;
  /**
   * `users!posts_author_id_fkey(*)`: which relationship, where more than one joins the tables
   * (PGRST201 without): a constraint name, a column of a one-column key, or a junction table.
   */
  hint?: string;
  /**
   * `remarks.order=created_at.desc` (supabase-js `.order('created_at', { referencedTable:
   * 'remarks' })`): the embedded array in this order, compared in order (ties in any order);
   * without it PostgREST promises none and the array is compared as a multiset.
   */
  order?: OrderTerm[];
}

export type ApiRequest =
  /**
   * `order`: a top-level `order=created_at.desc,id` (supabase-js `.order('created_at', { ascending:
   * false })`): the rows compared in that order (ties in any order); without it as a multiset.
   * `wholeRow`: `select=*` sent as drawn, even by a role the model grants some columns only
   * (granted-columns.ts): the probe of a whole-row read (R16).
   */
  | { kind: 'select'; table: string; schema?: string; columns: string[] | '*'; filters: Filter[]; single?: boolean; embeds?: Embed[]; order?: OrderTerm[]; wholeRow?: true }
  /**
   * `missing: 'default'`: `Prefer: missing=default` (supabase-js `.insert(rows, { defaultToNull:
   * false })`, `.upsert(…)` alike): a key one object of the body lacks takes the column's default,
   * not NULL (v12.2 SqlFragment.hs fromJsonBodyF `includeDefaults`). Without it a bulk body's
   * objects are inserted over the union of their keys, a key one lacks NULL there.
   */
  | { kind: 'insert'; table: string; schema?: string; rows: Row[]; returning: Returning; columns?: WriteColumns; upsert?: Upsert; single?: boolean; missing?: 'default' }
  | { kind: 'update'; table: string; schema?: string; patch: Row; filters: Filter[]; returning: Returning; columns?: WriteColumns; single?: boolean; maxAffected?: number }
  | { kind: 'delete'; table: string; schema?: string; filters: Filter[]; returning: Returning; columns?: WriteColumns; single?: boolean; maxAffected?: number }
  /**
   * get: `GET /rpc/fn?arg=…` (supabase-js `.rpc(fn, args, { get: true })`): the arguments as query
   * parameters (text), and the transaction read-only whatever the function's volatility (v12.2
   * Plan.hs callReadPlan txMode: `InvRead → SQL.Read`), so a function that writes fails with 25006.
   */
  /**
   * single: `.rpc(fn, args).single()` (`Accept: application/vnd.pgrst.object+json`): a set-returning
   * function answering 0 or 2+ rows answers 406 PGRST116 and its writes are rolled back (v12.2
   * Query.hs actionQuery DbCall: failNotSingular); a function returning one value or row counts as
   * one row whatever it returns (Statements.hs prepareCall: `page_total` 1 for funcReturnsSingle).
   */
  | { kind: 'rpc'; fn: string; schema?: string; args: Record<string, Json>; get?: boolean; single?: boolean };

/**
 * The request as a line of a failure or repro. `sentAs: 'sql'`: a table the mapping sends as SQL
 * (`via: "sql"`, outside the API) is described as the statement it is, not as a REST request.
 */
export function describeRequest(r: ApiRequest, sentAs?: 'sql'): string {
  if (sentAs === 'sql') return `as SQL: ${sqlRequestText(r)}`;
  const base = r.kind === 'rpc' ? `/rest/v1/rpc/${r.schema ? `${r.schema}.` : ''}${r.fn}` : `/rest/v1/${r.schema ? `${r.schema}.` : ''}${r.table}`;
  const params = [
    ...('filters' in r ? r.filters.map((f) => `${f.column}=${f.op}.${JSON.stringify(f.value)}`) : []),
    ...(selectParam(r) ? [`select=${selectParam(r)}`] : []),
    ...(r.kind === 'insert' && r.upsert?.onConflict ? [`on_conflict=${r.upsert.onConflict.join(',')}`] : []),
    ...orderParams(r),
  ];
  const query = params.length ? `?${params.join('&')}` : '';
  switch (r.kind) {
    case 'select':
      return `GET ${base}${query}`;
    case 'insert':
      return `POST ${base}${query} (return=${r.returning}${r.upsert ? `, resolution=${r.upsert.resolution}` : ''}${r.missing ? `, missing=${r.missing}` : ''}) ${JSON.stringify(r.rows.length === 1 ? r.rows[0] : r.rows)}`;
    case 'update':
      return `PATCH ${base}${query} (return=${r.returning}) ${JSON.stringify(r.patch)}`;
    case 'delete':
      return `DELETE ${base}${query} (return=${r.returning})`;
    case 'rpc':
      return (r.get ? `GET ${base}${rpcQuery(r.args)}` : `POST ${base} ${JSON.stringify(r.args)}`) + (r.single ? ' (single object)' : '');
  }
}

/**
 * A request sent as SQL, in SQL's words with the model's filters (`UPDATE teamkit.teams SET
 * {"name":"x"} WHERE id=eq."a" (return=minimal)`, `SELECT teamkit.fn({"p_id":"a"})`); the
 * statement itself is in the .sql repro.
 */
export function sqlRequestText(r: ApiRequest): string {
  if (r.kind === 'rpc') return `SELECT ${r.schema ? `${r.schema}.` : ''}${r.fn}(${JSON.stringify(r.args)})`;
  const table = r.schema ? `${r.schema}.${r.table}` : r.table;
  const where = r.kind === 'insert' || !r.filters.length ? '' : ` WHERE ${r.filters.map((f) => `${f.column}=${f.op}.${JSON.stringify(f.value)}`).join(' AND ')}`;
  const returning = r.kind === 'select' ? '' : ` (return=${r.returning}${r.kind === 'insert' && r.upsert ? `, resolution=${r.upsert.resolution}${r.upsert.onConflict ? `, on_conflict=${r.upsert.onConflict.join(',')}` : ''}` : ''}${r.kind === 'insert' && r.missing ? `, missing=${r.missing}` : ''})`;
  switch (r.kind) {
    case 'select':
      return `SELECT ${selectParam(r) ?? '*'} FROM ${table}${where}`;
    case 'insert':
      return `INSERT INTO ${table}${returning} ${JSON.stringify(r.rows.length === 1 ? r.rows[0] : r.rows)}`;
    case 'update':
      return `UPDATE ${table} SET ${JSON.stringify(r.patch)}${where}${returning}`;
    case 'delete':
      return `DELETE FROM ${table}${where}${returning}`;
  }
}

/** A request's `select=` (`id,title`, with embeds `*,remarks!inner(id,body)`); undefined when it names none (every column). */
export function selectParam(r: ApiRequest): string | undefined {
  if (r.kind === 'rpc') return undefined;
  const list = (cs: string[] | '*') => (cs === '*' ? '*' : cs.join(','));
  const embeds = r.kind === 'select' ? (r.embeds ?? []) : [];
  if (!embeds.length) return Array.isArray(r.columns) ? list(r.columns) : undefined;
  return [list(r.columns ?? '*'), ...embeds.map((e) => `${e.alias ? `${e.alias}:` : ''}${e.table}${e.hint ? `!${e.hint}` : ''}${e.inner ? '!inner' : ''}(${list(e.columns)})`)].join(',');
}

/** A read's `order=` and its embeds' (`tags.order=label.desc`) as query parameters. */
export function orderParams(r: ApiRequest): string[] {
  if (r.kind !== 'select') return [];
  const text = (order: OrderTerm[]) => order.map(orderTermText).join(',');
  return [...(r.order?.length ? [`order=${text(r.order)}`] : []), ...(r.embeds ?? []).filter((e) => e.order?.length).map((e) => `${embedKey(e)}.order=${text(e.order!)}`)];
}

/** A GET rpc's arguments as its query string (`?a=1&b=x`), values as PostgREST reads them: text. */
export function rpcQuery(args: Record<string, Json>): string {
  const params = Object.entries(args).map(([k, v]) => `${k}=${encodeURIComponent(rpcArgText(v))}`);
  return params.length ? `?${params.join('&')}` : '';
}

/** An argument as a query parameter carries it: a scalar's text, anything else as JSON text. */
export function rpcArgText(v: Json): string {
  return v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/**
 * A request naming its table as the model does, `storage.objects`, with no `schema`: the same
 * table as `{ schema: 'storage', table: 'objects' }` (targetName), where it was sent to
 * `public."storage.objects"` and every request failed 42P01.
 */
export function withSchemaOfDottedTable(request: ApiRequest): ApiRequest {
  if (request.kind === 'rpc' || request.schema || !request.table.includes('.')) return request;
  const dot = request.table.indexOf('.');
  return { ...request, schema: request.table.slice(0, dot), table: request.table.slice(dot + 1) };
}

/** The table or function a request names, as the model keys it: `name`, or `schema.name` outside public. */
export function targetName(r: ApiRequest): string {
  const name = r.kind === 'rpc' ? r.fn : r.table;
  return r.schema && r.schema !== 'public' ? `${r.schema}.${name}` : name;
}

/** The columns a request's answer carries: a read's or a write's `select=` ('*' when it names none). */
export function selectedColumns(r: Exclude<ApiRequest, { kind: 'rpc' }>): string[] | '*' {
  return r.kind === 'select' ? r.columns : (r.columns ?? '*');
}
