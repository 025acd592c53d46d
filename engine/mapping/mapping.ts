/**
 * A project's names for the model's things. The model (the oracle) keeps speaking the pack's
 * names — `users.display_name`, `soft_delete_pr_ticket(p_id)` — and a TargetMapping translates
 * each request and each fixture world into the target's names before they reach the database,
 * and each answer back into the model's names before it is compared. Pure: no I/O, no SQL.
 *
 * What it maps:
 * - tables and columns: renamed (`users` → `members`, `display_name` → `full_name`) or absent
 *   (`null`: fixtures leave the column out, answers are compared without it, a request that
 *   names it cannot be sent and is left out of its case, counted: target/fixtures.ts sendableCase);
 * - functions: renamed, their parameters renamed, their answers reshaped (`returns`);
 * - conventions: how the target refuses (the SQLSTATE its functions and guards raise, where the
 *   model raises P0001) and how it grants (Supabase's default privileges with row security
 *   deciding, where the model expects explicit grants).
 */
import { apiRoleOf, type Caller } from '../model/caller.ts';
import type { Json, Row } from '../model/json.ts';
import { orAlso, secureReading, sqlError, type Outcome } from '../model/outcome.ts';
import { writeAnswerShape } from '../model/engine.ts';
import type { ApiRequest, Embed } from '../model/request.ts';
import { embedKey } from '../model/embed.ts';
import { targetName } from '../model/request.ts';
import { idAsTarget, type TargetIdForm } from '../model/target-ids.ts';
import { escapeRegExp } from '../regexp.ts';

export { uuidAsBigint, textAsUuid } from '../model/target-ids.ts';

export interface TableMapping {
  /** The target's name (`schema.table` outside public). Absent: the same name. */
  name?: string;
  /** Model column → target column; `null`: the target has no such column. Unlisted: same name. */
  columns?: Record<string, string | null>;
  /**
   * Vocabularies the target spells differently, by model column: model value → target value
   * (`{ role: { user: 'member' } }`). Applied to text values and to the elements of text arrays,
   * in fixtures, bodies and filters, and to the rows the model expects back (several model
   * values may share one target value, so answers are compared in the target's vocabulary).
   */
  values?: Record<string, Record<string, string>>;
  /**
   * Model uuid columns the target keys with a bigint (`id bigint generated … as identity`): each
   * model id becomes a number (uuidAsBigint, the same for the same id everywhere) in fixtures,
   * bodies, filters and the rows the model expects, so answers are compared in the target's ids.
   * A text id needs nothing: a uuid is text.
   */
  bigintIds?: string[];
  /**
   * Model text ids the target keys with a uuid (`id uuid default gen_random_uuid()` where the
   * model's ids are `VS-1003`), and the uuid references to them: each becomes a uuid (textAsUuid;
   * a uuid stays itself) wherever bigintIds' ids become numbers.
   */
  uuidIds?: string[];
  /**
   * Model columns of one value the target keeps as an array (`roles app_role[]` for the model's
   * `role`, checked with `'staff' = any(roles)`): a value is written as an array of it alone, a
   * null as an empty array (none held), and an answer's array is compared with that. A filter on
   * it cannot be sent as the model's (dropped, counted): see valueAsArrayOfOne.
   */
  arrayOfOne?: string[];
  /**
   * Columns a BEFORE INSERT trigger of the target sets to `auth.uid()` for a signed-in caller,
   * whatever the body says (`new.submitter_id := auth.uid()`). A signed-in caller's INSERT is
   * sent as drawn; the model predicts the row stored as the caller's (engine/model/predict.ts
   * callerFilledRequest), so a target that keeps a forged owner disagrees.
   */
  callerFilled?: string[];
  /**
   * The target column holding a row's auth identity where the table keeps a key of its own: a
   * legacy `users (id bigint primary key, auth_user_id uuid unique references auth.users)` whose
   * `id` (mapped with `bigintIds`) every other table references, and whose helpers look the
   * caller up by `auth_user_id = auth.uid()`. Fixtures write the model's id there untranslated
   * (the auth.users id the caller signs in as) beside the key (engine/target/auth-identity.ts).
   */
  authIdentity?: string;
  /**
   * Target tables the model does not know, written alongside each fixture row of this one: a
   * row per model row, each target column (key) taken from a model column (value), as this
   * table's mapping writes it (`{ table: "people", columns: { id: "id", user_id: "id" } }`: a
   * person row for every student record, which the target's `identity_conflicts.person_id`
   * and `my_person_id()` read). Written just before this table's rows, in fixtures only.
   */
  alsoWrite?: { table: string; columns: Record<string, string> }[];
  /**
   * How requests reach the table: `rest` (default) through PostgREST, or `sql`: as SQL under the
   * caller's role and claims, for a table or view in a schema the API does not expose (reached
   * in production only through functions, and tested the way pgTAP tests do: `set role
   * authenticated` plus `request.jwt.claims`). See docs/config.md "Tables the API does not expose".
   */
  via?: 'rest' | 'sql';
}

/**
 * How a function's answer maps to the model's:
 * - `as-is`: the same shape (output columns renamed by `columns`, if given);
 * - `row-as-boolean`: the target returns the affected row (or null / no row) where the model
 *   answers whether one was affected (`{ value: true | false }`);
 * - `{ field }`: the target returns a jsonb object (`{"removed": true, "code": …}`) whose `field`
 *   is the model's scalar answer (a boolean, a text); no object or no such field is null;
 * - `value-as-void`: the target returns a value (a text, a jsonb) where the model's function is
 *   void, or is void where the model answers a value (soft_delete_* returning nothing): the
 *   value is not compared, only that the call succeeded.
 */
export type ReturnShape = 'as-is' | 'row-as-boolean' | 'value-as-void' | { field: string };

export interface FunctionMapping {
  name?: string;
  /** Model parameter → target parameter. Unlisted: same name. */
  args?: Record<string, string>;
  returns?: ReturnShape;
  /** Model output column → target output column (set- and row-returning functions). */
  columns?: Record<string, string>;
  /**
   * Output columns the target returns beyond the model's (`opened_at`), named one by one: left
   * out of the answer before it is compared. Any other extra column still shows (a leak).
   */
  extraColumns?: string[];
  /**
   * Keys of a jsonb answer that hold rows of a model table (`{ "record": "student_records" }`:
   * get_my_student_record's object holds the caller's record): such a row, or each of a list,
   * is read back with that table's column mapping (and without `extraColumns`), and the model's
   * is expected without the columns the target lacks, in its vocabulary and ids.
   */
  tableRows?: Record<string, string>;
  /**
   * The model table whose rows the answer is (`vs_tickets` for get_vs_ticket_by_id's object): its
   * output columns are read back through that table's column mapping (`category_id` → `category`)
   * where `columns` names them not, and the model's rows are expected in the table's vocabulary
   * (`values`). Its ids stay the function's own (`uuidIds`): an answer may carry a name where the
   * table keeps an id. Filled from the model (FunctionModel.rowsOf, answer-tables.ts).
   */
  rowsOf?: string;
  /**
   * Model parameters and output columns that are ids the target keeps as bigints (the function
   * of a table mapped with `bigintIds`: `p_id`, `id`, `duplicate_of`): arguments are sent as the
   * table's ids are (uuidAsBigint), and the answer the model expects holds them so, at any depth
   * of a jsonb answer (`nodes[].parent_id`).
   */
  bigintIds?: string[];
  /** The same for ids of a table mapped with `uuidIds` (`p_id uuid`). */
  uuidIds?: string[];
  /**
   * How calls reach the function: `rest` (default) through PostgREST's `/rpc`, or `sql`: the same
   * call as SQL under the caller's role and claims, for a function in a schema the API does not
   * expose (docs/config.md "Tables the API does not expose").
   */
  via?: 'rest' | 'sql';
}

/** One kind of refusal as the target raises it. */
export interface RefusalConvention {
  /** The SQLSTATE the target raises (e.g. `42501`). */
  code: string;
  /** When given, only errors whose message matches (a regular expression) are this refusal. */
  message?: string;
}

export interface Conventions {
  /**
   * Refusals raised in function bodies (the model raises P0001 NOT_AUTHORIZED). A target raising
   * 42501 "not authorized" from a definer function is read as the model's refusal; a missing
   * EXECUTE grant ("permission denied for function …") stays a grant refusal.
   */
  functionRefusal?: RefusalConvention;
  /** Refusals raised by owner guards (BEFORE UPDATE triggers; the model raises P0001). */
  guardRefusal?: RefusalConvention;
  /**
   * `explicit` (the model's reading): a role without a grant is refused with 42501.
   * `supabase-default`: the target keeps Supabase's default privileges (every table granted to
   * anon and authenticated) and lets row security decide, so where the model expects "refused
   * by grant", refused by a policy or answered with nothing (0 rows) is the same secure answer.
   */
  grants?: 'explicit' | 'supabase-default';
}

export interface TargetMapping {
  /** By model table name. */
  tables?: Record<string, TableMapping>;
  /** By model function name. */
  functions?: Record<string, FunctionMapping>;
  conventions?: Conventions;
}

/** The model's refusal code (engine-wide: guards and functions raise P0001). */
export const MODEL_REFUSAL_CODE = 'P0001';

/** A request naming something the target does not have: the case cannot be sent as it is. */
export class UnmappableRequest extends Error {
  constructor(
    message: string,
    /** What it named (`users.avatar_url`), when a column mapped to null. */
    readonly column?: string,
    /** Why it is left out of its case, when not for a column (counted under this text). */
    readonly dropReason?: string,
  ) {
    super(message);
    this.name = 'UnmappableRequest';
  }
}

export function isEmptyMapping(m: TargetMapping | undefined): boolean {
  return !m || (!Object.keys(m.tables ?? {}).length && !Object.keys(m.functions ?? {}).length && !m.conventions);
}

/** The target's name of a model table. */
export function targetTable(m: TargetMapping, table: string): string {
  return m.tables?.[table]?.name ?? table;
}

/**
 * Target tables (`schema.table`) and functions (`schema.fn()`, sqlRoutedFunctionKey) the mapping
 * sends as SQL (`via: "sql"`) rather than through the API.
 */
export function sqlRoutedTables(m: TargetMapping | undefined): Set<string> {
  const out = new Set<string>();
  for (const [model, t] of Object.entries(m?.tables ?? {})) {
    if (t.via !== 'sql') continue;
    const { schema, name } = splitName(targetTable(m!, model));
    out.add(`${schema ?? 'public'}.${name}`);
  }
  for (const [model, f] of Object.entries(m?.functions ?? {})) {
    if (f.via !== 'sql') continue;
    const { schema, name } = splitName(targetFunction(m!, model));
    out.add(sqlRoutedFunctionKey(`${schema ?? 'public'}.${name}`));
  }
  return out;
}

type WrittenModel = { tables: Record<string, { table: string; view?: unknown }>; fixtureOrder: readonly string[] };

/** The model's tables that hold rows of their own (model names): its views' rows are computed from them, never written. */
export function writtenTables(model: WrittenModel): string[] {
  return Object.values(model.tables).filter((t) => !t.view).map((t) => t.table);
}

/** The model's views (model names): their rows are computed from its tables (TableModel.view). */
export function computedViews(model: WrittenModel): string[] {
  return Object.values(model.tables).filter((t) => t.view).map((t) => t.table);
}

/**
 * The schemas, besides public and auth, holding the tables a pack's worlds write (its tables that
 * are no view, and its fixtureOrder), in the target's names: an API of views in public over tables
 * in a schema it does not expose (dbdev's `app.accounts` under `public.accounts`). Their catalog
 * is read as the exposed schemas' are, so `init` finds such a table by its name and the fixtures
 * are completed from its shape.
 */
export function writtenSchemas(model: WrittenModel, m: TargetMapping | undefined): string[] {
  const written = [...writtenTables(model), ...model.fixtureOrder];
  const schemas = written.map((t) => splitName(m ? targetTable(m, t) : t).schema).filter((s): s is string => !!s && s !== 'public' && s !== 'auth');
  return [...new Set(schemas)];
}

/** A function's entry among the objects sent as SQL: `schema.fn()`, told apart from a table of the same name. */
export function sqlRoutedFunctionKey(qualified: string): string {
  return `${qualified}()`;
}

/** The target's name of a model function. */
export function targetFunction(m: TargetMapping, fn: string): string {
  return m.functions?.[fn]?.name ?? fn;
}

/** The target's column for a model column: its name, or null when the target has none. */
export function targetColumn(m: TargetMapping, table: string, column: string): string | null {
  const columns = m.tables?.[table]?.columns;
  if (columns && column in columns) return columns[column];
  return column;
}

/** Model columns the target does not have. */
export function absentColumns(m: TargetMapping, table: string): string[] {
  return Object.entries(m.tables?.[table]?.columns ?? {})
    .filter(([, t]) => t === null)
    .map(([c]) => c);
}

/** Each table mapping's columns read backwards (target → model), built once per columns object: every answer's every row is read through it. */
const reversedColumns = new WeakMap<object, Map<string, string>>();
const NO_COLUMNS: ReadonlyMap<string, string> = new Map();

function reverseColumns(m: TargetMapping, table: string): ReadonlyMap<string, string> {
  const columns = m.tables?.[table]?.columns;
  if (!columns) return NO_COLUMNS;
  let out = reversedColumns.get(columns);
  if (!out) {
    out = new Map();
    for (const [model, target] of Object.entries(columns)) if (target !== null) out.set(target, model);
    reversedColumns.set(columns, out);
  }
  return out;
}

export function splitName(name: string): { schema?: string; name: string } {
  const dot = name.indexOf('.');
  return dot < 0 ? { name } : { schema: name.slice(0, dot), name: name.slice(dot + 1) };
}

export function renameRow(row: Row, rename: (column: string) => string | null, value: (column: string, v: Json) => Json = (_c, v) => v): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) {
    const to = rename(k);
    if (to !== null) out[to] = value(k, v);
  }
  return out;
}

function translate(words: Record<string, string> | undefined, v: Json): Json {
  if (!words) return v;
  if (typeof v === 'string') return Object.hasOwn(words, v) ? words[v] : v;
  if (Array.isArray(v)) return v.map((x) => translate(words, x));
  return v;
}

/** The ids a table or function mapping keeps in another form than the model's, by model column or parameter. */
function idForms(ids: Pick<TableMapping, 'bigintIds' | 'uuidIds'> | undefined): Map<string, TargetIdForm> {
  const out = new Map<string, TargetIdForm>();
  for (const c of ids?.bigintIds ?? []) out.set(c, 'bigint');
  for (const c of ids?.uuidIds ?? []) out.set(c, 'uuid');
  return out;
}

function targetId(form: TargetIdForm, v: Json): Json {
  if (typeof v === 'string') return idAsTarget(form, v);
  if (Array.isArray(v)) return v.map((x) => targetId(form, x));
  return v;
}

/** A model argument of `fn` as the target takes it (ids: the function's bigintIds / uuidIds). */
export function argToTarget(m: TargetMapping, fn: string, arg: string, v: Json): Json {
  const form = idForms(m.functions?.[fn]).get(arg);
  return form ? targetId(form, v) : v;
}

/** A function's answer with its ids (by key, at any depth) as the target keeps them. */
function targetIdsWithin(v: Json, forms: ReadonlyMap<string, TargetIdForm>): Json {
  if (Array.isArray(v)) return v.map((x) => targetIdsWithin(x, forms));
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, forms.has(k) ? targetId(forms.get(k)!, x) : targetIdsWithin(x, forms)]));
}

/** A model value of `table.column` in the target's vocabulary (and ids: bigintIds, uuidIds; an array of one: arrayOfOne). */
export function valueToTarget(m: TargetMapping, table: string, column: string, v: Json): Json {
  const form = idForms(m.tables?.[table]).get(column);
  if (form) return targetId(form, v);
  const words = translate(m.tables?.[table]?.values?.[column], v);
  return keptAsArrayOfOne(m, table, column) ? valueAsArrayOfOne(words) : words;
}

/** `table.column` is one value the target keeps as an array (mapping `arrayOfOne`). */
export function keptAsArrayOfOne(m: TargetMapping, table: string, column: string): boolean {
  return m.tables?.[table]?.arrayOfOne?.includes(column) ?? false;
}

/**
 * One value as a target keeping it in an array holds it: the array of it alone; a null is an
 * empty array, since a helper reading such a column (`roles[1]`, `'staff' = any(roles)`) finds no
 * role in either, and a NOT NULL array column can hold no null.
 */
function valueAsArrayOfOne(v: Json): Json {
  return v === null ? [] : [v];
}

/** A target row's arrays of one value (mapping `arrayOfOne`) as the model's value: its element, none for an empty one. */
export function arrayOfOneToModel(m: TargetMapping, table: string, row: Row): Row {
  const columns = m.tables?.[table]?.arrayOfOne;
  if (!columns?.length) return row;
  const out: Row = { ...row };
  for (const c of columns) {
    const v = out[c];
    if (Array.isArray(v) && v.length <= 1) out[c] = v[0] ?? null;
  }
  return out;
}

/** Whether `table.column` sorts on the target as in the model: the same values (no `values` words, no other id form, no array). */
export function orderKeepsOnTarget(m: TargetMapping, table: string, column: string): boolean {
  return !idForms(m.tables?.[table]).has(column) && m.tables?.[table]?.values?.[column] === undefined && !keptAsArrayOfOne(m, table, column);
}

/**
 * The model table an embed of `parent` reads: its own name, or, for a self-referencing key's
 * column (`parent_id(*)`, a column the parent's mapping names), the parent itself.
 */
export function embeddedModelTable(m: TargetMapping, parent: string, e: Embed): string {
  const columns = m.tables?.[parent]?.columns;
  return columns && Object.hasOwn(columns, e.table) && !m.tables?.[e.table] ? parent : e.table;
}

/** Each row of `row`'s embeds (object, array or null) made by `reshape` with its model table. */
function withEmbeddedRows(m: TargetMapping, request: ApiRequest, row: Row, reshape: (table: string, row: Row) => Row): Row {
  if (request.kind !== 'select' || !request.embeds?.length) return row;
  const out: Row = { ...row };
  for (const e of request.embeds) {
    const key = embedKey(e);
    const table = embeddedModelTable(m, targetName(request), e);
    const v = out[key];
    out[key] = Array.isArray(v) ? v.map((x) => reshape(table, x as Row)) : v !== null && typeof v === 'object' ? reshape(table, v as Row) : (v ?? null);
  }
  return out;
}

/** A model row of `table` in the target's columns and vocabulary (absent columns dropped). */
export function rowToTarget(m: TargetMapping, table: string, row: Row): Row {
  return renameRow(row, (c) => targetColumn(m, table, c), (c, v) => valueToTarget(m, table, c, v));
}

/** A target row of the model's `table` in the model's columns (unmapped target columns keep their names). */
export function rowToModel(m: TargetMapping, table: string, row: Row): Row {
  const reverse = reverseColumns(m, table);
  return renameRow(row, (c) => reverse.get(c) ?? (m.tables?.[table]?.columns?.[c] !== undefined ? `(target) ${c}` : c));
}

function matches(convention: RefusalConvention, code: string, message: string | undefined): boolean {
  return convention.code === code && (convention.message === undefined || new RegExp(convention.message).test(message ?? ''));
}

const GRANT_MESSAGE = /^permission denied for (function|table|view|schema|sequence)/;

function refusalOf(outcome: Outcome): { code: string; message?: string } | undefined {
  if (outcome.kind === 'rejected') return { code: outcome.code, message: outcome.detail };
  if (outcome.kind === 'raised') return { code: outcome.code, message: outcome.message };
  if (outcome.kind === 'error') return { code: outcome.code, message: outcome.detail };
  return undefined;
}

/** A write an owner guard (a BEFORE UPDATE trigger) judges: a PATCH, or an upsert's conflict path. */
export function guardedWrite(request: ApiRequest): boolean {
  return request.kind === 'update' || (request.kind === 'insert' && request.upsert?.resolution === 'merge-duplicates');
}

/**
 * A target refusal of the conventional kind, read as the model's (P0001). A function's write
 * fires the table's guard, which may refuse before the function's own check (the spec says not
 * which refuses first): inside an RPC a refusal in either convention is a refusal.
 */
function conventionalRefusal(m: TargetMapping, request: ApiRequest, outcome: Outcome): Outcome | undefined {
  const refusal = refusalOf(outcome);
  if (!refusal || GRANT_MESSAGE.test(refusal.message ?? '')) return undefined;
  const conventions = request.kind === 'rpc' ? [m.conventions?.functionRefusal, m.conventions?.guardRefusal] : guardedWrite(request) ? [m.conventions?.guardRefusal] : [];
  if (!conventions.some((c) => c !== undefined && matches(c, refusal.code, refusal.message))) return undefined;
  return { kind: 'raised', code: MODEL_REFUSAL_CODE, message: refusal.message };
}

function reshapeRows(m: TargetMapping, request: ApiRequest, rows: Row[] | null): Row[] | null {
  if (rows === null) return null;
  if (request.kind !== 'rpc') return rows.map((r) => withEmbeddedRows(m, request, rowToModel(m, targetName(request), r), (table, row) => rowToModel(m, table, row)));
  const fn = m.functions?.[targetName(request)];
  if (!fn) return rows;
  if (fn.returns === 'row-as-boolean') {
    // No row, a null, or a row of nulls (a plpgsql `RETURN r` with nothing found) is "none".
    const hit = rows.some((r) => Object.values(r).some((v) => v !== null && v !== false));
    return [{ value: hit }];
  }
  if (fn.returns === 'value-as-void') return null;
  if (typeof fn.returns === 'object') {
    // A jsonb object reads back as one row (the object); a null answer as [{ value: null }].
    const field = fn.returns.field;
    const object = rows.length === 1 && !('value' in rows[0] && Object.keys(rows[0]).length === 1) ? rows[0] : undefined;
    return [{ value: object && Object.hasOwn(object, field) ? object[field] : null }];
  }
  // An extra column by the target's name or by the model's it reads back as: init's to-do and a
  // failure name it in the model's (`submitter_id` for stranger-app-15's "submitterId").
  const extra = new Set(fn.extraColumns ?? []);
  const leftOutOrRenamed = (c: string, asModel: string | undefined) => (extra.has(c) || (asModel !== undefined && extra.has(asModel)) ? null : (asModel ?? c));
  const reverse = new Map(Object.entries(fn.columns ?? {}).map(([model, target]) => [target, model]));
  const ofTable = fn.rowsOf ? reverseColumns(m, fn.rowsOf) : NO_COLUMNS;
  const renamed = rows.map((r) => renameRow(r, (c) => leftOutOrRenamed(c, reverse.get(c) ?? ofTable.get(c))));
  return withTableRows(fn, renamed, (table, row) => {
    const columns = reverseColumns(m, table);
    return renameRow(row, (c) => leftOutOrRenamed(c, columns.get(c)));
  });
}

/** `rows` with each row of a model table their keys hold (FunctionMapping.tableRows) as `reshape` makes it. */
function withTableRows(fn: FunctionMapping, rows: Row[], reshape: (table: string, row: Row) => Row): Row[] {
  const keys = Object.entries(fn.tableRows ?? {});
  if (!keys.length) return rows;
  const each = (table: string, v: Json): Json =>
    Array.isArray(v) ? v.map((x) => each(table, x)) : v !== null && typeof v === 'object' ? reshape(table, v as Row) : v;
  return rows.map((r) => ({ ...r, ...Object.fromEntries(keys.filter(([k]) => Object.hasOwn(r, k)).map(([k, table]) => [k, each(table, r[k])])) }));
}

/**
 * The target's answer to `request` (the model's request, before mapping) in the model's terms:
 * rows in the model's columns and shapes, conventional refusals as the model's code.
 */
export function outcomeToModel(m: TargetMapping, request: ApiRequest, outcome: Outcome): Outcome {
  const refusal = conventionalRefusal(m, request, outcome);
  if (refusal) return refusal;
  if (outcome.kind !== 'allowed' && outcome.kind !== 'filtered') return outcome;
  const rows = reshapeRows(m, request, outcome.rows);
  const fn = request.kind === 'rpc' ? m.functions?.[targetName(request)] : undefined;
  // A reshaped answer is one value, as the model's scalar or void function counts it.
  const affected = fn?.returns !== undefined && fn.returns !== 'as-is' ? 1 : outcome.affected;
  return { ...outcome, rows, affected } as Outcome;
}

/**
 * The rows the model expects, as the target can show them: without the model columns the target
 * lacks (neither side can speak of them), values in the target's vocabulary.
 */
export function expectedRowsOnTarget(m: TargetMapping, request: ApiRequest, outcome: Outcome): Outcome {
  const own = ownRowsOnTarget(m, request, outcome);
  // An alternative holding rows (another tenant's public rows: second-tenant.ts) is shown as the target can show it too.
  if (!own.orElse?.some((a) => (a.kind === 'allowed' || a.kind === 'filtered') && a.rows)) return own;
  return { ...own, orElse: own.orElse.map((a) => expectedRowsOnTarget(m, request, a)) } as Outcome;
}

function ownRowsOnTarget(m: TargetMapping, request: ApiRequest, outcome: Outcome): Outcome {
  if ((outcome.kind !== 'allowed' && outcome.kind !== 'filtered') || !outcome.rows) return outcome;
  if (request.kind === 'rpc') {
    // Compared only as a success, whichever side answers a value (a void function where the model answers one).
    if (m.functions?.[targetName(request)]?.returns === 'value-as-void') return { ...outcome, rows: null } as Outcome;
    const fn = m.functions?.[targetName(request)];
    const forms = idForms(fn);
    const ided = forms.size ? outcome.rows.map((r) => targetIdsWithin(r, forms) as Row) : outcome.rows;
    const rows = fn?.rowsOf ? ided.map((r) => inTableVocabulary(m, fn.rowsOf!, r)) : ided;
    if (!fn?.tableRows) return rows !== outcome.rows ? ({ ...outcome, rows } as Outcome) : outcome;
    return { ...outcome, rows: withTableRows(fn, rows, (table, row) => rowOnTarget(m, table, row)) } as Outcome;
  }
  const table = targetName(request);
  const embeds = request.kind === 'select' && !!request.embeds?.length;
  if (!embeds && !absentColumns(m, table).length && !m.tables?.[table]?.values && !idForms(m.tables?.[table]).size) return outcome;
  return { ...outcome, rows: outcome.rows.map((r) => withEmbeddedRows(m, request, rowOnTarget(m, table, r), (t, row) => rowOnTarget(m, t, row))) } as Outcome;
}

/** A model row carrying `table`'s columns with their values in the target's vocabulary (`values`), nothing else changed. */
function inTableVocabulary(m: TargetMapping, table: string, row: Row): Row {
  const values = m.tables?.[table]?.values;
  return values ? renameRow(row, (c) => c, (c, v) => translate(values[c], v)) : row;
}

/** A model row of `table` as the target can show it, in the model's column names: without the columns the target lacks, values as the target keeps them. */
function rowOnTarget(m: TargetMapping, table: string, row: Row): Row {
  const absent = new Set(absentColumns(m, table));
  return renameRow(row, (c) => (absent.has(c) ? null : c), (c, v) => valueToTarget(m, table, c, v));
}

/**
 * What the target's catalog says (engine/target/catalog-facts.ts), for the answers only a shape
 * of it justifies. Absent (a catalog not read): none of them is accepted.
 */
export interface CatalogFacts {
  /** The table a target column (target names) references by a foreign key. */
  referencedTable(table: string, column: string): string | undefined;
  /** A target function's return type (`jsonb`, `text`), by its name as called, when known. */
  returnType(fn: string): string | undefined;
  /** Whether `role` holds `privilege` on `table` (target names) where row security, not the grant, decides (a table with it on, or an invoker view over one). */
  rowSecurityDecides(table: string, privilege: 'select' | 'insert' | 'update' | 'delete', role: 'anon' | 'authenticated'): boolean;
}

/** The answers a target's shape made as correct as the model's, each named by what justified it (`leniencyOf`). */
const leniencies = new WeakMap<Outcome, string>();

/** Why an alternative of an expectation is accepted, when it is one the target's shape justified (named in the run's note). */
export function leniencyOf(alternative: Outcome): string | undefined {
  return leniencies.get(alternative);
}

function lenient(alternative: Outcome, why: string): Outcome {
  leniencies.set(alternative, why);
  return alternative;
}

/**
 * A function the model answers with no row (a lookup finding nothing) may answer a null instead,
 * as a `returns jsonb` function finding nothing does: the same nothing, shown. Only a function
 * the catalog says returns json or jsonb: a null from a text or a boolean is a value, not "none".
 */
function nullAsNoRow(m: TargetMapping, request: ApiRequest, expected: Outcome, facts: CatalogFacts | undefined): Outcome {
  if (request.kind !== 'rpc' || expected.kind !== 'allowed' || expected.rows?.length !== 0 || !facts) return expected;
  const fn = targetFunction(m, targetName(request));
  const type = facts.returnType(fn);
  if (type !== 'json' && type !== 'jsonb') return expected;
  const nullAnswer = lenient({ kind: 'allowed', rows: [{ value: null }], affected: 1 }, `a null read as no row: ${fn} returns ${type}`);
  return { ...expected, orElse: [...(expected.orElse ?? []), nullAnswer] };
}

/**
 * A function the model answers with no row (a lookup finding nothing) that returns one composite,
 * not a set (`returns api.ticket_card`), cannot answer no row: its NULL, called in FROM as
 * PostgREST v12.2 calls it (`select pgrst_call.* from f(…) pgrst_call`, QueryBuilder.hs
 * callPlanToQuery), is one row of nulls, which PostgREST shows as an object whose every field is
 * null (SqlFragment.hs asJsonF, `json_agg(_postgrest_t)->0`). The same nothing, shown: the
 * observed row (read back as the answer is) accepted where the model, or any answer it accepts,
 * has no row. Read for every target, mapped or not, where each answer is compared
 * (check-case.ts checkStep): `nullComposite` is the executor's word that the answer is such a
 * NULL (ApiResponse.nullComposite: `schema.fn returns one type`); a row with any value still differs.
 */
export function rowOfNullsAsNoRow(request: ApiRequest, expected: Outcome, nullComposite: string | undefined, observed: Outcome): Outcome {
  if (request.kind !== 'rpc' || nullComposite === undefined || observed.kind !== 'allowed' || observed.rows?.length !== 1 || !acceptsNoRow(expected)) return expected;
  const nulls = lenient({ kind: 'allowed', rows: observed.rows, affected: 1 }, `a row of nulls read as no row: ${nullComposite}, not a set (PostgREST shows its NULL so)`);
  return { ...expected, orElse: [...alternativesOf(expected), nulls] } as Outcome;
}

const alternativesOf = (o: Outcome): Outcome[] => ('orElse' in o ? (o.orElse ?? []) : []);
/** The expectation, or an answer it also accepts, is a success with no row. */
const acceptsNoRow = (o: Outcome): boolean => (o.kind === 'allowed' && o.rows?.length === 0) || alternativesOf(o).some(acceptsNoRow);

/**
 * A function the model answers with a set of rows may build them as one json array instead
 * (`returns json` … `json_agg(…)`, `'[]'` when empty): PostgREST shows the same array for both,
 * though Postgres returned one value. The same rows, counted as that one value. Only a function
 * the catalog says returns json or jsonb.
 */
function jsonArrayAsOneValue(m: TargetMapping, request: ApiRequest, expected: Outcome, facts: CatalogFacts | undefined): Outcome {
  if (request.kind !== 'rpc' || (expected.kind !== 'allowed' && expected.kind !== 'filtered') || !expected.rows || expected.affected === 1 || !facts) return expected;
  const fn = targetFunction(m, targetName(request));
  const type = facts.returnType(fn);
  if (type !== 'json' && type !== 'jsonb') return expected;
  const oneValue = lenient({ kind: expected.kind, rows: expected.rows, affected: 1 }, `a ${type} array counted as one value: ${fn} returns ${type}`);
  return { ...expected, orElse: [...(expected.orElse ?? []), oneValue] };
}

/** The column (and the model table, where named) of a CHECK refusal's detail: `target_dept check`, `vs_tickets.target_dept check (why)`. */
function checkedColumn(detail: string | undefined): { table?: string; column: string } | undefined {
  const subject = /^(\S+) check(?: \(.*\))?$/s.exec(detail ?? '')?.[1];
  if (subject === undefined) return undefined;
  const dot = subject.lastIndexOf('.');
  return dot < 0 ? { column: subject } : { table: subject.slice(0, dot), column: subject.slice(dot + 1) };
}

/**
 * A value outside a vocabulary the model's CHECK refuses (23514, `<column> check`) the target may
 * keep as a lookup table instead (`target_dept references departments`): its foreign key refuses
 * it (23503), the same refusal. Only where that column is a foreign key on the target.
 */
function vocabularyByForeignKey(m: TargetMapping, request: ApiRequest, expected: Outcome, facts: CatalogFacts | undefined): Outcome {
  if (!facts) return expected;
  const alternatives = [expected, ...('orElse' in expected ? (expected.orElse ?? []) : [])];
  const checked = alternatives.flatMap((o) => (o.kind === 'error' && o.code === '23514' ? [checkedColumn(o.detail)] : [])).find((c) => c !== undefined);
  if (!checked) return expected;
  // A table request's own column; a function's write: the column of the table its model names (`vs_tickets.target_dept check`), none where it names no table.
  const table = request.kind === 'rpc' ? checked.table : targetName(request);
  if (table === undefined) return expected;
  const onTarget = targetColumn(m, table, checked.column);
  const lookup = onTarget ? facts.referencedTable(targetTable(m, table), onTarget) : undefined;
  if (!lookup) return expected;
  const where = `${targetTable(m, table)}.${onTarget}`;
  return orAlso(expected, [lenient(sqlError('23503', `a vocabulary kept as a lookup table (${where} references ${lookup})`), `23503 read as 23514: ${where} references ${lookup}`)]);
}

/**
 * A write the model refuses by the row rule's WITH CHECK (42501, the new row out of scope) may be
 * refused by the target's guard instead: a BEFORE UPDATE trigger runs before WITH CHECK is
 * judged, so a guard refusing the same change (`deleted_at changes only through soft_delete`)
 * answers first. Only a row the writer sees (the model's `rejected`, not a filtered nothing), and
 * only a refusal of the guard convention.
 */
function guardBeforeWithCheck(m: TargetMapping, request: ApiRequest, expected: Outcome): Outcome {
  if (!m.conventions?.guardRefusal || !guardedWrite(request) || expected.kind !== 'rejected' || expected.by !== 'policy') return expected;
  return orAlso(expected, [lenient({ kind: 'raised', code: MODEL_REFUSAL_CODE, message: 'the guard refuses first' }, 'a guard (BEFORE UPDATE trigger) refuses before the row rule\'s WITH CHECK')]);
}

/**
 * What the model expects, widened by the target's conventions: under `supabase-default` grants,
 * a table request the model refuses by grant may instead be refused by a row rule or answered
 * with nothing — row security deciding instead of the grant, both secure; a function may refuse
 * in its body, or answer what the model's body answers that caller (a write never). Anything that
 * shows or changes a row still disagrees. Without that convention, the same holds table by table
 * where the catalog says the target grants the privilege under row security (grantedUnderRowSecurity).
 */
export function expectedOnTarget(m: TargetMapping, caller: Caller, request: ApiRequest, modelExpected: Outcome, facts?: CatalogFacts): Outcome {
  const expected = guardBeforeWithCheck(m, request, vocabularyByForeignKey(m, request, jsonArrayAsOneValue(m, request, nullAsNoRow(m, request, expectedRowsOnTarget(m, request, modelExpected), facts), facts), facts));
  if (caller.kind === 'service' || expected.kind !== 'rejected' || expected.by !== 'grant') return expected;
  if (m.conventions?.grants !== 'supabase-default') return grantedUnderRowSecurity(m, caller, request, expected, facts);
  if (request.kind === 'rpc') {
    // Functions keep Supabase's default EXECUTE; the body answers instead: a refusal of its own,
    // or what the model's body answers this caller where that changes nothing (outcome.ts bodyAnswer).
    const refused: Outcome = { kind: 'raised', code: MODEL_REFUSAL_CODE, message: 'the function refuses in its body (conventions.grants = supabase-default)' };
    const body = expected.bodyAnswer ? [expectedOnTarget(m, caller, request, expected.bodyAnswer, facts)] : [];
    return { ...expected, orElse: [...(expected.orElse ?? []), refused, ...body] };
  }
  return { ...expected, orElse: [...(expected.orElse ?? []), ...rowSecurityRefusals(request, 'conventions.grants = supabase-default')] };
}

/** A table request row security refuses instead of the grant: by a row rule (42501), or with nothing shown or changed. */
function rowSecurityRefusals(request: Exclude<ApiRequest, { kind: 'rpc' }>, why: string): Outcome[] {
  const returnsRows = request.kind === 'select' || request.returning === 'representation';
  // Nothing shown: under `single` that is PostgREST's 406 (no row), as the model says of its own empty answers.
  const none: Outcome = { kind: 'filtered', rows: returnsRows ? [] : null, affected: 0 };
  const nothing: Outcome = request.kind === 'select' && request.single ? sqlError('PGRST116', '0 rows') : writeAnswerShape(request, none);
  const byPolicy: Outcome = { kind: 'rejected', code: '42501', by: 'policy', detail: `row security decides (${why})` };
  return [byPolicy, nothing];
}

/**
 * The secure reading of a privilege the target grants and the model withholds (rule 16 names no
 * privilege beyond "the intended roles"), where row security decides what it reaches: a table
 * with row security on, or a security_invoker view over one, granting `authenticated` DELETE
 * (stranger-app-9's views) refuses the rows its policies do not let through, silently (0 rows)
 * or with 42501. A row shown or changed still disagrees; a table with row security off, a
 * security definer view, or a view whose INSTEAD OF trigger takes the write gets no such reading.
 */
export const GRANTED_UNDER_ROW_SECURITY = 'granted-under-row-security';

function grantedUnderRowSecurity(m: TargetMapping, caller: Caller, request: ApiRequest, expected: Outcome, facts: CatalogFacts | undefined): Outcome {
  if (request.kind === 'rpc' || !facts) return expected;
  const table = targetTable(m, targetName(request));
  const role = apiRoleOf(caller);
  // Read for the API roles only (Supabase's default privileges grant them, never a project's own role).
  if ((role !== 'anon' && role !== 'authenticated') || !facts.rowSecurityDecides(table, request.kind, role)) return expected;
  const why = `${role} holds ${request.kind.toUpperCase()} on ${table} under row security`;
  return orAlso(expected, rowSecurityRefusals(request, why).map((o) => secureReading(GRANTED_UNDER_ROW_SECURITY, o)));
}

/**
 * The model's expectation in the target's own names (the inverse of outcomeToModel, for a repro
 * that reads the target's raw answer): rows in its columns and vocabulary, its conventions' alternatives.
 */
export function expectedAsTargetShows(m: TargetMapping, caller: Caller, request: ApiRequest, predicted: Outcome, facts?: CatalogFacts): Outcome {
  const expected = expectedOnTarget(m, caller, request, predicted, facts);
  if ((expected.kind !== 'allowed' && expected.kind !== 'filtered') || !expected.rows || (predicted.kind !== 'allowed' && predicted.kind !== 'filtered') || !predicted.rows) return expected;
  if (request.kind !== 'rpc') return { ...expected, rows: predicted.rows.map((r) => rowToTarget(m, targetName(request), r)) } as Outcome;
  const fn = m.functions?.[targetName(request)];
  if (!fn?.columns && !fn?.rowsOf) return expected;
  const onTable = (c: string) => (fn.rowsOf ? targetColumn(m, fn.rowsOf, c) : null) ?? c;
  return { ...expected, rows: predicted.rows.map((r) => renameRow(r, (c) => fn.columns?.[c] ?? onTable(c))) } as Outcome;
}

/** Model column names of a request's table or function as the target names them (absent ones dropped). */
export function columnsAsTargetNames(m: TargetMapping, request: ApiRequest, columns: readonly string[]): string[] {
  if (request.kind === 'rpc') {
    const renamed = m.functions?.[targetName(request)]?.columns ?? {};
    return columns.map((c) => renamed[c] ?? c);
  }
  return columns.map((c) => targetColumn(m, targetName(request), c)).filter((c): c is string => c !== null);
}

/** Tables and functions as the target names them, for applicability: `has(model name)`. */
export function presenceUnder(m: TargetMapping | undefined, has: (targetName: string) => boolean): (modelName: string) => boolean {
  if (!m) return has;
  return (name) => has(m.tables?.[name] ? targetTable(m, name) : m.functions?.[name] ? targetFunction(m, name) : name);
}

/**
 * Model ids written inside free text (a remark "see VS-1003"), as the target keeps the ids of a
 * table whose key it holds in another form (`uuidIds` / `bigintIds` naming `id`): the ids of the
 * given rows (a case's world and the rows it inserts), replaced where they stand as a whole word
 * inside a longer text (a column's or argument's value that is an id alone is a reference: its
 * mapping makes it the target's; inside a JSON document every text is translated). Takes a row,
 * a patch or a call's arguments. Applied to the case, so the model reads the
 * text the target stores (the model knows an id in its target form) and a target that recognises
 * a ticket named in a remark recognises the model's.
 */
export function idsInTextAsTarget(m: TargetMapping, rowsByTable: Record<string, readonly Row[]>): ((values: Row) => Row) | undefined {
  const named: [RegExp, string][] = [];
  const ids = new Set<string>();
  for (const [table, tm] of Object.entries(m.tables ?? {})) {
    const form = idForms(tm).get('id');
    if (!form) continue;
    for (const row of rowsByTable[table] ?? []) {
      if (typeof row.id !== 'string') continue;
      const onTarget = String(idAsTarget(form, row.id));
      if (onTarget !== row.id && !ids.has(row.id) && ids.add(row.id)) named.push([new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(row.id)}(?![A-Za-z0-9])`, 'g'), onTarget]);
    }
  }
  if (!named.length) return undefined;
  // `asValue`: a column's or argument's own value (or an element of its array). Inside a JSON
  // document (a remark's `by`) an id alone is text like any other: no mapping translates it there.
  const inText = (v: Json, asValue: boolean): Json => {
    if (typeof v === 'string') return asValue && ids.has(v) ? v : named.reduce((text, [id, onTarget]) => text.replace(id, onTarget), v);
    if (Array.isArray(v)) return v.map((x) => inText(x, asValue));
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, inText(x, false)]));
    return v;
  };
  return (values) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, inText(v, true)]));
}
