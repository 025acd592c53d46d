/**
 * A failure read at a glance: a structural diff of the model's prediction against the database's
 * answer that lists only the fields, rows and columns that differ (`rows[id=7].tags: [] → ["wifi"]`),
 * and the request as a curl-like line. Console, HTML and SARIF lead with these; the full values
 * follow, folded.
 */
import type { Caller } from '../model/caller.ts';
import { apiRoleOf } from '../model/caller.ts';
import type { Json } from '../model/json.ts';
import type { Outcome } from '../model/outcome.ts';
import { orderParams, rpcQuery, selectParam, sqlRequestText, withSchemaOfDottedTable, type ApiRequest, type Filter } from '../model/request.ts';
import { canonicalJson } from '../model/values.ts';
import { actualOutcomeOf } from '../failures/describe.ts';

export interface FieldDiff {
  /** Where the values differ: `kind`, `affected`, `rows[id=7].tags`, `rows[2]`. */
  path: string;
  /** undefined: the field is absent on that side. */
  model: Json | undefined;
  database: Json | undefined;
}

const isObject = (v: unknown): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);
const same = (a: Json | undefined, b: Json | undefined) => (a === undefined || b === undefined ? a === b : canonicalJson(a) === canonicalJson(b));

/** Keys that name a row, tried in order, for pairing the rows of the two sides. */
const ROW_KEYS = ['id', 'uuid', 'user_id', 'key'];

function rowKeyOf(rows: Json[], other: Json[]): string | undefined {
  const all = [...rows, ...other];
  return ROW_KEYS.find((k) => all.every((r) => isObject(r) && k in r && (typeof r[k] === 'string' || typeof r[k] === 'number')) && new Set(rows.map((r) => canonicalJson((r as Record<string, Json>)[k]))).size === rows.length);
}

/**
 * Arrays are compared as multisets of rows: rows equal on both sides are dropped, the rest are
 * paired by a key column (`id`) when every row has one, else by position.
 */
function diffArrays(path: string, model: Json[], database: Json[], out: FieldDiff[]): void {
  const leftDb = [...database];
  const leftModel: Json[] = [];
  for (const m of model) {
    const i = leftDb.findIndex((d) => same(m, d));
    if (i >= 0) leftDb.splice(i, 1);
    else leftModel.push(m);
  }
  if (!leftModel.length && !leftDb.length) {
    if (model.length !== database.length) out.push({ path: `${path}.length`, model: model.length, database: database.length });
    return;
  }
  const key = rowKeyOf(leftModel, leftDb);
  if (key) {
    const label = (r: Json) => `${path}[${key}=${String((r as Record<string, Json>)[key])}]`;
    for (const m of leftModel) {
      const d = leftDb.find((r) => same((r as Record<string, Json>)[key], (m as Record<string, Json>)[key]));
      if (d === undefined) out.push({ path: label(m), model: m, database: undefined });
      else diffValues(label(m), m, d, out);
    }
    for (const d of leftDb) if (!leftModel.some((m) => same((m as Record<string, Json>)[key], (d as Record<string, Json>)[key]))) out.push({ path: label(d), model: undefined, database: d });
    return;
  }
  const n = Math.max(leftModel.length, leftDb.length);
  for (let i = 0; i < n; i++) diffValues(`${path}[${i}]`, leftModel[i], leftDb[i], out);
}

function diffValues(path: string, model: Json | undefined, database: Json | undefined, out: FieldDiff[]): void {
  if (same(model, database)) return;
  if (isObject(model) && isObject(database)) {
    for (const k of [...new Set([...Object.keys(model), ...Object.keys(database)])]) diffValues(path ? `${path}.${k}` : k, model[k], database[k], out);
    return;
  }
  if (Array.isArray(model) && Array.isArray(database) && (model.some(isObject) || database.some(isObject))) {
    diffArrays(path, model, database, out);
    return;
  }
  out.push({ path: path || '(value)', model, database });
}

/** Only what differs between two JSON values, field by field. */
export function structuralDiff(model: unknown, database: unknown): FieldDiff[] {
  const out: FieldDiff[] = [];
  diffValues('', toJson(model), toJson(database), out);
  return out;
}

function toJson(v: unknown): Json | undefined {
  return v === undefined ? undefined : (JSON.parse(JSON.stringify(v) ?? 'null') as Json);
}

/**
 * The fields the checker compares (engine/checker/compare.ts): the kind, who rejected, the
 * SQLSTATE, rows touched and the rows. Messages and alternatives are context, not the verdict.
 */
function comparedView(o: Outcome, masked: readonly string[]): Record<string, Json> {
  switch (o.kind) {
    case 'allowed':
    case 'filtered':
      return { kind: o.kind, affected: o.affected, rows: o.rows && o.rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !masked.includes(k)))) };
    case 'rejected':
      return { kind: o.kind, code: o.code, by: o.by };
    case 'raised':
    case 'error':
      // The checker treats a raised error and any other error alike when the SQLSTATE agrees.
      return { kind: 'error', code: o.code };
  }
}

/**
 * The diff of a failure's two sides. A data-layer failure compares the model's outcome with the
 * database's, in the checker's terms (`masked`: server-assigned columns, not compared, left
 * out); anything else (SSO) is compared as plain JSON.
 */
export function failureDiff(expected: unknown, actual: unknown, masked: readonly string[] = []): FieldDiff[] {
  const dbOutcome = actualOutcomeOf(actual);
  if (isOutcome(expected) && dbOutcome) return structuralDiff(comparedView(expected, masked), comparedView(dbOutcome, masked));
  return structuralDiff(expected, actual);
}

export function isOutcome(v: unknown): v is Outcome {
  return isObject(v) && typeof v.kind === 'string' && ['allowed', 'filtered', 'rejected', 'raised', 'error'].includes(v.kind);
}

function short(v: Json | undefined, max = 160): string {
  if (v === undefined) return '(absent)';
  const text = JSON.stringify(v);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** One line per differing field: `rows[id=7].tags: [] → ["wifi"]` (model → database). */
export function formatDiff(diff: FieldDiff[]): string[] {
  return diff.map((d) => `${d.path}: ${short(d.model)} → ${short(d.database)}`);
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function filterParam(f: Filter): string {
  const value = f.op === 'in' && Array.isArray(f.value) ? `(${f.value.map((v) => (typeof v === 'string' ? `"${v}"` : String(v))).join(',')})` : f.value === null ? 'null' : String(f.value);
  return `${encodeURIComponent(f.column)}=${f.op}.${encodeURIComponent(value).replace(/%2C/g, ',').replace(/%28/g, '(').replace(/%29/g, ')')}`;
}

/**
 * The request as a curl command against a Supabase project's REST endpoint. The token is named,
 * not forged: the caller's role and `sub` say which JWT to use.
 */
export function curlLine(caller: Caller, request: ApiRequest): string {
  request = withSchemaOfDottedTable(request);
  const name = request.kind === 'rpc' ? `rpc/${request.fn}` : request.table;
  const params: string[] = 'filters' in request ? request.filters.map(filterParam) : [];
  // `!inner` as %21inner: a `!` inside double quotes is history expansion in an interactive shell.
  const select = selectParam(request);
  if (select) params.push(`select=${select.replace(/!/g, '%21')}`);
  if (request.kind === 'insert' && request.upsert?.onConflict) params.push(`on_conflict=${request.upsert.onConflict.join(',')}`);
  params.push(...orderParams(request));
  const url = request.kind === 'rpc' && request.get ? `$SUPABASE_URL/rest/v1/${name}${rpcQuery(request.args)}` : `$SUPABASE_URL/rest/v1/${name}${params.length ? `?${params.join('&')}` : ''}`;
  const method = request.kind === 'rpc' && request.get ? 'GET' : { select: 'GET', insert: 'POST', update: 'PATCH', delete: 'DELETE', rpc: 'POST' }[request.kind];
  // Keys are shell variables (double quotes expand them); a user's JWT is described, not forged.
  const authorization =
    caller.kind === 'anon' ? '"Authorization: Bearer $ANON_KEY"' : caller.kind === 'service' ? '"Authorization: Bearer $SERVICE_ROLE_KEY"' : shellQuote(`Authorization: Bearer <JWT role=${apiRoleOf(caller)} sub=${caller.id}${caller.email ? ` email=${caller.email}` : ''}${caller.aal && caller.aal !== 'aal1' ? ` aal=${caller.aal}` : ''}${caller.appMetadata ? ` app_metadata=${JSON.stringify(caller.appMetadata)}` : ''}${caller.userMetadata ? ` user_metadata=${JSON.stringify(caller.userMetadata)}` : ''}${Object.entries(caller.hookClaims ?? {}).map(([k, v]) => ` ${k}=${JSON.stringify(v)}`).join('')}>`);
  const parts = ['curl', '-X', method, `"${url}"`, '-H', '"apikey: $ANON_KEY"', '-H', authorization];
  for (const [name, value] of Object.entries(caller.headers ?? {})) parts.push('-H', shellQuote(`${name}: ${value}`));
  if (request.schema && request.schema !== 'public') parts.push('-H', shellQuote(`${method === 'GET' ? 'Accept' : 'Content'}-Profile: ${request.schema}`));
  if (request.kind !== 'rpc' && request.single) parts.push('-H', shellQuote('Accept: application/vnd.pgrst.object+json'));
  if ('returning' in request) {
    const resolution = request.kind === 'insert' && request.upsert ? `,resolution=${request.upsert.resolution}` : '';
    const max = (request.kind === 'update' || request.kind === 'delete') && request.maxAffected !== undefined ? `,handling=strict,max-affected=${request.maxAffected}` : '';
    parts.push('-H', shellQuote(`Prefer: return=${request.returning}${resolution}${max}`));
  }
  const body = request.kind === 'insert' ? (request.rows.length === 1 ? request.rows[0] : request.rows) : request.kind === 'update' ? request.patch : request.kind === 'rpc' && !request.get ? request.args : undefined;
  if (body !== undefined) parts.push('-H', shellQuote('Content-Type: application/json'), '-d', shellQuote(JSON.stringify(body)));
  return parts.join(' ');
}

/**
 * How the differing step was sent: the curl line, or, for a table or function sent as SQL (outside the API),
 * the role and claims it ran under (its statement is in the saved .sql repro and .pgtap.sql).
 */
export function requestLine(caller: Caller, request: ApiRequest, sentAs: 'sql' | undefined): string {
  if (sentAs !== 'sql') return curlLine(caller, request);
  const claims = caller.kind === 'user' ? ` sub=${caller.id}` : '';
  return `as SQL, not through the API: set role ${apiRoleOf(caller)}, request.jwt.claims <role=${apiRoleOf(caller)}${claims}>; ${sqlRequestText(request)} (the statement: the saved .sql repro)`;
}

/** The step of a data-layer case where the sides differ: its caller and request. */
export function differingStep(testCase: unknown, step: number | null | undefined): { caller: Caller; request: ApiRequest } | undefined {
  if (!isObject(testCase) || !Array.isArray(testCase.steps)) return undefined;
  const steps = testCase.steps as unknown as Array<{ caller: Caller; request: ApiRequest }>;
  const s = steps[step ?? steps.length - 1];
  return s && isObject(s.caller as unknown) && isObject(s.request as unknown) ? s : undefined;
}
