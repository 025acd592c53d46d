/**
 * What `policyfuzz init` can infer of a mapping from the target's catalog: which of its tables
 * is which model table (shared column names, foreign keys to the same table, types), which of
 * its columns is which model column (name tokens, types, references), which function is which
 * (name tokens, arity, read-only or not), the return shapes and output columns that follow, the
 * refusal and grant conventions, and the vocabularies its CHECKs and defaults pin. Pure: the
 * catalog facts come in as data. Every proposal is a guess to confirm; `notes` say which.
 */
import type { TargetColumnFacts, TargetFacts, TargetFunctionFacts, TargetTableFacts } from './target-facts-shape.ts';
export type { TargetColumnFacts, TargetFacts, TargetFunctionFacts, TargetTableFacts } from './target-facts-shape.ts';
import { tenantColumnIn, tenantColumnNote, withTenantColumnMarked } from './tenant-column.ts';
import { authIdentityColumnOf } from './auth-identity.ts';
import { leftOutAreOptional, pairParameters, parameterCountsFit } from './parameter-pairing.ts';
import { callableThroughRest } from '../db/function-parameters.ts';
import { TEXT_TYPE, unqualifiedType } from '../introspection/table-shapes.ts';
import { bodyCodeOfErrcode, SQLSTATE_SHAPE } from '../executor/pgrst-raise.ts';
import type { TargetMapping } from './mapping.ts';
import type { TargetIdForm } from '../model/target-ids.ts';
import { escapeRegExp } from '../regexp.ts';
import { targetSpelling } from './target-spelling.ts';
import { setPath, valueAtPath } from './dotted-path.ts';
import { caseBranches, caseElse, simpleCaseBranches, stripOuterParens, topLevelDisjuncts } from '../db/sql-expressions.ts';
import { guardClausesAsCase } from './plpgsql-guard-clauses.ts';

export interface ModelColumnFacts {
  name: string;
  type: string;
  primaryKey?: boolean;
  /** The model checks it against a vocabulary (a CHECK in the reference schema). */
  vocabulary?: boolean;
  hasDefault?: boolean;
  /** Its default where that is a text constant (`student`). */
  textDefault?: string;
  nullable?: boolean;
  /** Computed by the model (a generated column, never written). */
  generated?: boolean;
  /** The model table it is a foreign key to (`project_files.project_id` → `projects`). */
  references?: string;
  /** Other names the spec gives the column's kind (`kkumail`: "a kkumail-type e-mail column"), matched as its name is. */
  aliases?: string[];
}

export interface ModelTableFacts {
  name: string;
  columns: ModelColumnFacts[];
  /** The model guards writes to it (beforeInsert/beforeUpdate): a convention for the target's guards can apply. */
  guarded?: boolean;
}

export interface ModelFunctionFacts {
  name: string;
  args: string[];
  /** Keys of its jsonb answer holding rows, and the columns the model's rows there carry (FunctionModel.answerRows). */
  answerRows?: Record<string, readonly string[]>;
  /** The model's function answers nothing (RETURNS void). */
  answersVoid?: boolean;
}



/** Whether `t` is the relation a body names `table` (catalog-named: bare in public): itself, or the projection view over it. */
const isRelationNamed = (t: TargetTableFacts, table: string): boolean => t.name === table || t.name === `public.${table}` || t.viewOf === table;


/** The caller's identity as a body reads it. */
const READS_CALLER = /\bauth\s*\.\s*(?:uid|jwt|email)\s*\(/i;

/**
 * A function that can answer only the caller's own data: it takes no parameter and reads who the
 * caller is, itself or through a helper of the target (`v_id := public.my_person_id()`).
 */
function answersCallerAlone(f: TargetFunctionFacts, functions: ReadonlyMap<string, TargetFunctionFacts>): boolean {
  if (f.args.length) return false;
  const source = withoutComments(f.source);
  if (READS_CALLER.test(source)) return true;
  return [...functions.values()].some((h) => h !== f && new RegExp(`\\b(?:public\\.)?${escapeRegExp(h.name)}\\s*\\(`, 'i').test(source) && READS_CALLER.test(withoutComments(h.source)));
}

/** A table as a body names it, its schema (any, quoted or not) captured apart: `private.records`, `"app".items`, `items`. */
const TABLE_NAME = '(?:"?(\\w+)"?\\s*\\.\\s*)?"?(\\w+)"?';
/** The catalog's name of it: `schema.name`, bare in public (as TargetTableFacts names it). */
const tableNamed = (schema: string | undefined, name: string) => (schema && schema.toLowerCase() !== 'public' ? `${schema}.${name}` : name);

/**
 * `(select jsonb_agg(jsonb_build_object('id', q.id, 'field', q.field, …) …) from … q)`: the row
 * alias the object's values read and the columns it carries, each under its own name (a key
 * renaming its column is left out: the answer would not show that column by its name).
 */
function aggregatedObject(part: string): { alias: string; columns: string[] } | undefined {
  const open = /^(?:coalesce\s*\(\s*)?\(\s*select\s+jsonb?_agg\s*\(\s*jsonb?_build_object\s*\(/i.exec(part);
  if (!open) return undefined;
  let depth = 1;
  let end = open[0].length;
  while (end < part.length && depth > 0) depth += part[end] === '(' ? 1 : part[end] === ')' ? -1 : 0, end++;
  const pairs = [...part.slice(open[0].length, end - 1).matchAll(/'(\w+)'\s*,\s*(\w+)\.(\w+)\s*(?:,|$)/g)];
  const aliases = new Set(pairs.map((x) => x[2]));
  if (aliases.size !== 1) return undefined;
  return { alias: [...aliases][0], columns: pairs.filter((x) => x[1] === x[3]).map((x) => x[1]) };
}

/**
 * The rows a jsonb answer carries under its keys, read off the body: `'k', (select to_jsonb(r) from
 * t r …)` or `row_to_json(r)` (every column of t), `'k', (select jsonb_agg(q) from (select c.a,
 * c.b from t c …) q)` (those named), t in any schema (`private.t`: its schema kept). `columns`
 * undefined: every column of `table`.
 */
export function jsonAnswerRows(source: string): { key: string; table: string; columns?: string[] }[] {
  const body = withoutComments(source);
  const keys = [...body.matchAll(/'(\w+)'\s*,\s*(?=(?:coalesce\s*\(\s*)?\(\s*select\b)/gi)];
  const found: { key: string; table: string; columns?: string[] }[] = outerRowAnswers(body);
  keys.forEach((k, i) => {
    const part = body.slice(k.index! + k[0].length, keys[i + 1]?.index ?? body.length);
    const built = aggregatedObject(part);
    const alias = /^(?:coalesce\s*\(\s*)?\(\s*select\s+(?:jsonb?_agg|to_jsonb|row_to_json)\s*\(\s*(?:(?:to_jsonb|row_to_json)\s*\(\s*)?(\w+)\s*[),\s]/i.exec(part)?.[1] ?? built?.alias;
    if (!alias) return;
    // An object built per row names its columns itself.
    const named = built ? { columns: built.columns } : {};
    const whole = new RegExp(`\\bfrom\\s+${TABLE_NAME}\\s+(?:as\\s+)?${alias}\\b`, 'i').exec(part);
    if (whole) return void found.push({ key: k[1], table: tableNamed(whole[1], whole[2]), ...named });
    const sub = new RegExp(`\\bfrom\\s*\\(\\s*select\\s+([\\s\\S]+?)\\s+from\\s+${TABLE_NAME}\\b[\\s\\S]*?\\)\\s*(?:as\\s+)?${alias}\\b`, 'i').exec(part);
    if (!sub) return;
    const items = sub[1].split(',').map((x) => x.trim());
    const all = items.some((x) => /^(?:\w+\.)?\*$/.test(x));
    const columns = items.map((x) => /(?:\bas\s+|^(?:\w+\.)?)(\w+)$/i.exec(x)?.[1]).filter((x): x is string => !!x);
    found.push({ key: k[1], table: tableNamed(sub[2], sub[3]), ...(built ? named : all ? {} : { columns }) });
  });
  return found;
}

/**
 * `select jsonb_build_object('record', to_jsonb(s), …) from private.student_records s where …`
 * (stranger-app-6): a key holding the whole row of the select that builds the object, its alias
 * bound by that select's own FROM (every column of the table).
 */
function outerRowAnswers(body: string): { key: string; table: string }[] {
  return [...body.matchAll(/'(\w+)'\s*,\s*(?:to_jsonb|row_to_json)\s*\(\s*(\w+)\s*\)/gi)].flatMap((k) => {
    const from = new RegExp(`\\bfrom\\s+${TABLE_NAME}\\s+(?:as\\s+)?${k[2]}\\b`, 'i').exec(body.slice(k.index! + k[0].length));
    return from ? [{ key: k[1], table: tableNamed(from[1], from[2]) }] : [];
  });
}

export interface Proposal {
  mapping: TargetMapping;
  /** Model settings the target's CHECKs and defaults pin (nested, as under `model`). */
  settings: Record<string, unknown>;
  /** What each guess rests on, for a person to confirm. */
  notes: string[];
  /** The target's tenant column (tenant-column.ts), for `fixtures.tenantColumn`. */
  tenantColumn?: string;
}

/**
 * A name in snake case: an ORM's camelCase or PascalCase (`submitterId`, `VsTicket`, `HTTPStatus`)
 * split where its case turns, so its words are found as a snake-case name's are.
 */
export function snakeCased(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2').toLowerCase();
}

function tokens(name: string): string[] {
  return snakeCased(name)
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((t) => (t.length > 3 && t.endsWith('s') ? t.slice(0, -1) : t));
}

/** Tokens alike: equal, or one a prefix of the other (`pr`/`press`, `ship`/`shipping`). */
function alike(a: string, b: string): boolean {
  return a === b || (Math.min(a.length, b.length) >= 2 && (a.startsWith(b) || b.startsWith(a)));
}

/** Token renames learnt from confident matches (`buyer` → `customer` from buyer_id → customer_id). */
type Renames = Map<string, string>;

function translated(name: string, renames: Renames): string {
  return tokens(name).map((t) => renames.get(t) ?? t).join('_');
}

/**
 * The one token that differs between two names of equal length, if exactly one does; with
 * `everyToken` (a table matched on its columns, strong evidence) each differing token in turn
 * (`pr_tickets` → `service_requests`: pr → service, ticket → request).
 */
function learn(renames: Renames, from: string, to: string, everyToken = false): void {
  const a = tokens(from);
  const b = tokens(to);
  if (a.length !== b.length) return;
  const diff = a.map((x, i) => [x, b[i]] as const).filter(([x, y]) => !alike(x, y));
  if (everyToken) for (const [x, y] of diff) if (!renames.has(x)) renames.set(x, y);
  if (diff.length === 1 && !renames.has(diff[0][0])) renames.set(diff[0][0], diff[0][1]);
  if (diff.length === 0) a.forEach((x, i) => x !== b[i] && !renames.has(x) && renames.set(x, b[i]));
}

/** The two names share a word besides `id` (`submitter_id`, `submitterId`). */
function sharesWord(a: string, b: string): boolean {
  const tb = tokens(b).filter((t) => t !== 'id');
  return tokens(a).some((x) => x !== 'id' && tb.some((y) => alike(x, y)));
}

function tokenScore(a: string, b: string): number {
  const ta = tokens(a);
  const tb = tokens(b);
  if (!ta.length || !tb.length) return 0;
  const hits = ta.filter((x) => tb.some((y) => alike(x, y))).length;
  return hits / Math.max(ta.length, tb.length);
}

function normalType(type: string): string {
  // format_type() keeps the modifier (`character varying(255)`, `numeric(10,2)`): no part of the meaning.
  const t = unqualifiedType(type).toLowerCase().replace(/\([^)]*\)/, '');
  if (t.startsWith('timestamp')) return 'timestamptz';
  if (t === 'character varying' || t === 'citext' || t.startsWith('varchar')) return 'text';
  if (t === 'bigint' || t === 'smallint' || t === 'integer') return 'integer';
  // A numeric is its own type: only a money-like model integer takes it (typeFits).
  if (t === 'decimal') return 'numeric';
  if (t === 'json' || t === 'jsonb') return 'jsonb';
  if (t.endsWith('[]')) return `${normalType(t.slice(0, -2))}[]`;
  return t;
}

/** Name tokens of an amount of money (tokens() singularises: `prices` → `price`). */
const MONEY_TOKENS = new Set(['price', 'amount', 'total', 'subtotal', 'cost', 'fee', 'balance', 'discount', 'tax', 'paid', 'charge', 'credit', 'debit', 'budget', 'salary', 'cent', 'cents', 'refund', 'payout', 'tip']);

/** A model integer that is an amount of money (`subtotal`, `price_cents`): a target's numeric(10,2) holds its whole amounts as they are. */
function moneyLike(model: { name: string; type: string }): boolean {
  return normalType(model.type) === 'integer' && tokens(model.name).some((t) => MONEY_TOKENS.has(t));
}

/** A model amount of money and a target column no word of which names one: an amount is no counter (`discount` is no optimistic lock's `version`, however alike their defaults). */
function amountOntoNoAmount(model: { name: string; type: string }, target: { name: string }): boolean {
  return moneyLike(model) && !tokens(target.name).some((t) => MONEY_TOKENS.has(t));
}

/** The target column can hold the model column's values: the same type, a money-like integer in a numeric, a list of words in an enum array, or one word in an array of them. */
function typeFits(model: { name: string; type: string; vocabulary?: boolean }, target: { type: string; elementVocabulary?: string[] }): boolean {
  const t = normalType(target.type);
  return normalType(model.type) === t || (t === 'numeric' && moneyLike(model)) || wordsInEnumArray(model, target) || wordInArray(model, target);
}

/**
 * A model column holding one word of a vocabulary (`users.role`) and a target array of such words
 * (`roles app_role[]`, `roles text[]`, read with `'staff' = any(roles)`): the target keeps the
 * model's value as an array of one (mapping `arrayOfOne`).
 */
function wordInArray(model: { type: string; vocabulary?: boolean }, target: { type: string; elementVocabulary?: string[] }): boolean {
  return normalType(model.type) === 'text' && model.vocabulary === true && (target.elementVocabulary !== undefined || normalType(target.type) === 'text[]');
}

/** The words a target column holds: its CHECK list or enum, or an enum array's labels where it keeps one model value (arrayOfOne: `roles app_role[]`). */
function vocabularyHeld(c: TargetColumnFacts, arrayOfOne: boolean): string[] | undefined {
  return c.vocabulary ?? (arrayOfOne ? c.elementVocabulary : undefined);
}

/** A model text[] (permissions: vs, pr, house) and a target array of an enum (`app_permission[]`), which holds words as text[] does. */
function wordsInEnumArray(model: { type: string }, target: { elementVocabulary?: string[] }): boolean {
  return normalType(model.type) === 'text[]' && target.elementVocabulary !== undefined;
}

/** A type whose values PostgREST sends and takes as JSON strings (bytea, a date, inet, an interval), as it does text. */
function travelsAsString(type: string): boolean {
  const t = normalType(type);
  return !t.endsWith('[]') && !['uuid', 'integer', 'numeric', 'real', 'double precision', 'boolean', 'jsonb'].includes(t);
}

/** Model columns that reference people: the model names them `*_id` and the reference keys them by auth.users. */
const PERSON_REF = /^(id|.*_id)$/;
const PEOPLE_TABLES = ['auth.users', 'users'];

/** The model's id types: a uuid, or a text id (`VS-1003`). */
const ID_TYPES = ['uuid', 'text'];

/**
 * The form a target keeps a model id of this type in, where it differs: a uuid or text id under
 * an integer (`id bigint generated … as identity`: bigintIds), a text id (`VS-1003`) under a uuid
 * (`id uuid default gen_random_uuid()`: uuidIds).
 */
function idFormOf(model: ModelColumnFacts, target: TargetColumnFacts): TargetIdForm | undefined {
  if (!ID_TYPES.includes(model.type)) return undefined;
  if (normalType(target.type) === 'integer') return 'bigint';
  if (model.type === 'text' && normalType(target.type) === 'uuid') return 'uuid';
  return undefined;
}

/** A model key the target keeps in another form: mapped with bigintIds or uuidIds. */
function keyForm(model: ModelColumnFacts, target: TargetColumnFacts): TargetIdForm | undefined {
  return model.primaryKey === true && target.primaryKey === true ? idFormOf(model, target) : undefined;
}

/**
 * A model reference (`duplicate_of`, `parent_id`) the target keeps as a foreign key to a table
 * whose key is in another form: mapped in that form too, so a reference becomes the key it names.
 * `keyedTables`: target tables chosen for model tables whose key is mapped so, and the form.
 */
function refForm(model: ModelColumnFacts, target: TargetColumnFacts, keyedTables: ReadonlyMap<string, TargetIdForm>): TargetIdForm | undefined {
  const form = target.references ? keyedTables.get(target.references.table) : undefined;
  return form !== undefined && idFormOf(model, target) === form ? form : undefined;
}

/**
 * A target keyed by a natural key the model holds as another column (stranger-app-6's
 * `student_records (student_id text primary key)` where the model has `id` and `student_id`): the
 * model's key found no column, the target's one-column key matched the model's natural one. The
 * model's key is then that column (foreign keys to the table hold it), and the natural column,
 * one value with the key there, is not written apart.
 */
function naturalKeyOf(m: ModelTableFacts, t: TargetTableFacts, columns: ReadonlyMap<string, string>): { key: string; natural: string; column: string } | undefined {
  const keys = m.columns.filter((c) => c.primaryKey);
  const targetKeys = t.columns.filter((c) => c.primaryKey);
  if (keys.length !== 1 || targetKeys.length !== 1 || columns.has(keys[0].name)) return undefined;
  const natural = [...columns].find(([model, target]) => target === targetKeys[0].name && model !== keys[0].name)?.[0];
  return natural ? { key: keys[0].name, natural, column: targetKeys[0].name } : undefined;
}

/**
 * A target keyed by several columns where the model keys the table by one id (stranger-app-17's
 * `shop_orders primary key (buyer_id, order_no)`, `order_no` numbered per buyer by a BEFORE INSERT
 * trigger only when left null): every key column but one holds a model column (`buyer_id`), and
 * that one, a column of the row's own (no reference), is where the model's id goes: fixtures write
 * the id there (an integer column in bigintIds' form), and a request naming the row by its id
 * names it by that column. The model's ids are unique in a case, so `order_no=eq.N` reaches the
 * row `buyer_id=eq.B&order_no=eq.N` does. `instead`: a non-key column the model's id matched
 * by type alone (stranger-app-17's `decided_by` for a change request's id), left to no column.
 * None where the model's id already is a key column, or two key columns are free (which is the
 * id's is not for init to guess).
 */
function compositeKeyPlaceOf(m: ModelTableFacts, t: TargetTableFacts, columns: ReadonlyMap<string, string>): { key: string; column: string; instead?: string } | undefined {
  const keys = m.columns.filter((c) => c.primaryKey);
  const targetKeys = t.columns.filter((c) => c.keyPart);
  if (keys.length !== 1 || targetKeys.length < 2) return undefined;
  const mappedTo = columns.get(keys[0].name);
  if (mappedTo !== undefined && targetKeys.some((c) => c.name === mappedTo)) return undefined;
  const held = new Set([...columns].filter(([model]) => model !== keys[0].name).map(([, target]) => target));
  const free = targetKeys.filter((c) => !held.has(c.name));
  if (free.length !== 1 || free[0].references) return undefined;
  // The id's own type, or an integer wide enough for bigintIds' ids (a smallint is not).
  const fits = normalType(free[0].type) === normalType(keys[0].type) || (idFormOf(keys[0], free[0]) === 'bigint' && !/^(smallint|int2)$/i.test(unqualifiedType(free[0].type)));
  if (!fits) return undefined;
  return { key: keys[0].name, column: free[0].name, ...(mappedTo !== undefined ? { instead: mappedTo } : {}) };
}

/** `columns` with the model's id in its place in a key of several columns (compositeKeyPlaceOf), where it has one. */
function withKeyPlace(m: ModelTableFacts, t: TargetTableFacts, columns: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
  const place = compositeKeyPlaceOf(m, t, columns);
  return place ? new Map([...columns, [place.key, place.column]]) : columns;
}

const ID_LISTS = { bigint: 'bigintIds', uuid: 'uuidIds' } as const;

/** The column and table a scalar function's body picks one value of: `select [alias.]column from [public.]table [alias]`, first statement of its body. */
function scalarKeyPicked(source: string): { column: string; table: string } | undefined {
  const m = /^\s*(?:begin\s+)?(?:return\s*\(\s*)?select\s+(?:(\w+)\.)?(\w+)\s+(?:into\s+\w+\s+)?from\s+(?:public\.)?(\w+)(?:\s+(?:as\s+)?(\w+))?/i.exec(withoutComments(source));
  if (!m || (m[1] !== undefined && m[1] !== m[4] && m[1] !== m[3])) return undefined;
  return { column: m[2], table: m[3] };
}

/** Names that identify (a key, a reference): `id`, `code`, `ref`, `*_id`, `*_ref`, `*_key`. */
const IDENTIFYING = /^(id|ref|code|key|.*_(id|ref|key|code))$/;

/**
 * Two columns that may mean the same by position alone (the last of their type left on both
 * sides): both keys; else alike in identifying something or not, and not free text (a title and
 * an owner's name are both text, and nothing else alike).
 */
function sameMeaning(model: ModelColumnFacts, target: TargetColumnFacts): boolean {
  if (model.primaryKey && target.primaryKey) return true;
  if (amountOntoNoAmount(model, target)) return false;
  if (otherEvent(model.name, snakeCased(target.name))) return false;
  if (normalType(model.type) === 'text' && !(model.vocabulary === true && target.vocabulary !== undefined)) return false;
  if (target.references && !IDENTIFYING.test(model.name)) return false;
  return IDENTIFYING.test(model.name) === IDENTIFYING.test(snakeCased(target.name));
}

/**
 * What a column the target computes and the model writes is mapped to. One a view computes over
 * its table (`private.role_of(id) as role`) usually reads a value kept elsewhere, a role granted
 * as a row of `user_roles`: the fixtures can write it there (stranger-app-9).
 */
function computedNote(t: TargetTableFacts, computed: string[]): string {
  const by = t.viewOf ? `computed by the view (not a column of ${t.viewOf})` : 'computed by the target (GENERATED)';
  const elsewhere = t.viewOf ? `; where it reads a value kept as rows of another table (a role in user_roles), write those rows with fixtures.columnsAsRows (docs/config.md)` : '';
  return `confirm: ${computed.join(', ')} ${by} where the model writes the value: mapped to null (not written, not compared)${elsewhere}`;
}

/** A row's life events, each by the words its stamp is named with (`archived_at` is a deletion too). */
const LIFE_EVENTS = [
  ['created', 'inserted', 'added'],
  ['updated', 'modified', 'changed', 'edited'],
  ['deleted', 'archived', 'removed', 'trashed', 'discarded'],
];

/**
 * Stamps of two different life events (`deleted_at`, `created_at`): never one column, however
 * alone their type leaves them. stranger-app-9's views show no `deleted_at` (soft-deleted rows
 * are hidden), and the model's was mapped onto `created_at`, set on every row.
 */
function otherEvent(model: string, target: string): boolean {
  const eventOf = (name: string) => {
    const stem = /^(.+)_(at|on|time|date)$/.exec(name)?.[1];
    return stem === undefined ? -1 : LIFE_EVENTS.findIndex((words) => words.includes(stem));
  };
  const a = eventOf(model);
  const b = eventOf(target);
  return a >= 0 && b >= 0 && a !== b;
}

/** A model uuid key or reference the target keeps as text (a slug key `id text check (id ~ '^[a-z0-9-]+$')`): a uuid's text is such a value. */
function uuidAsTextKey(model: ModelColumnFacts, target: TargetColumnFacts): boolean {
  return model.type === 'uuid' && normalType(target.type) === 'text' && (target.primaryKey === true || target.references !== undefined);
}

/** The target table chosen for a model table, where known: a reference must point at it. */
type TableOf = (modelTable: string) => string | undefined;

/**
 * A model reference the target column cannot be: both are foreign keys, to different tables (the
 * model's `project_files.project_id` → projects is no `document_id` → project_documents, however
 * alike the names: a file keyed by document is another relation, and its values never a project's).
 */
function refersElsewhere(model: ModelColumnFacts, target: TargetColumnFacts, tableOf: TableOf): boolean {
  const references = model.references ?? namedReference(model.name, tableOf);
  if (references === undefined || target.references === undefined) return false;
  const expected = tableOf(references);
  return expected !== undefined && expected !== target.references.table;
}

/**
 * The model table a `<table>_id` column names where the model declares no foreign key
 * (`student_record_id`: student_records), people aside (they are auth.users or the users table,
 * either way). stranger-app-9: its change requests' `decided_by` references the users view and
 * took the people bonus over `record_id`, which references the student records.
 */
function namedReference(column: string, tableOf: TableOf): string | undefined {
  const stem = /^(.+)_id$/.exec(column)?.[1];
  if (!stem || stem === 'user') return undefined;
  return [`${stem}s`, stem].find((name) => !PEOPLE_TABLES.includes(name) && tableOf(name) !== undefined);
}

/**
 * The model's reference to the person (`team_members.user_id`, named for the users table itself)
 * onto a target foreign key to a table that holds no people (a tenant's `workspace_id` →
 * workspaces): never the same column, however alone it is left (stranger-app-16's team_members
 * mapped `user_id → workspace_id`, the member's person column being `profile_id` → profiles).
 */
function personOntoOtherReference(model: ModelColumnFacts, target: TargetColumnFacts, tableOf: TableOf): boolean {
  if (model.name !== 'user_id' || model.references !== undefined || !target.references) return false;
  const table = target.references.table;
  return !PEOPLE_TABLES.includes(table) && table !== tableOf('users');
}

/**
 * The model's own key (`team_members.id`, naming no reference: a key named `user_id`, passport's
 * profile keyed by its person, is one) onto a target column holding another table's key: never the
 * same column, but where that column is the target's whole primary key (a row keyed by its parent,
 * `profiles.id` → auth.users). stranger-app-16's join table
 * `team_members (node_id, profile_id)` has no key of its own (many-to-many): its `id` took the
 * person column, then the tenant's `workspace_id`.
 */
function ownKeyOntoReference(model: ModelColumnFacts, target: TargetColumnFacts, table: TargetTableFacts): boolean {
  if (model.primaryKey !== true || namesAReference(model) || !target.references) return false;
  return !(target.primaryKey === true && table.columns.filter((c) => c.primaryKey).length === 1);
}

/**
 * The model's default is a word (`submitter_label` default `student`) and the target's another
 * text constant (`title` default ''): a column of other values, however alike the rest. An empty
 * model default is only a filler for NOT NULL, and says nothing; nor do two vocabularies' defaults.
 */
function otherWordDefault(model: ModelColumnFacts, target: TargetColumnFacts): boolean {
  // Two vocabularies' defaults are each one's first state, spelled as each spells it (open, new): a values mapping pairs them.
  if (model.vocabulary && target.vocabulary) return false;
  const literal = /^'((?:[^']|'')*)'(?:::[\w ."]+)*$/.exec(target.defaultExpr ?? '')?.[1]?.replace(/''/g, "'");
  return !!model.textDefault && literal !== undefined && literal !== model.textDefault;
}

/** A model column holding another row's key: a declared foreign key, or named `*_id` (a reference the model declares none for). */
function namesAReference(model: ModelColumnFacts): boolean {
  return model.references !== undefined || /_id$/.test(model.name);
}

/** Last words naming a value that identifies (a key, a handle, a number), on the target's side. */
const IDENTIFYING_WORDS = new Set(['id', 'ref', 'code', 'key', 'handle', 'slug', 'token', 'uuid', 'no', 'num', 'number']);

/**
 * A model handle (`public_ref`, named to identify: IDENTIFYING) and a target text column named for
 * text of another kind (`public_summary`: no key, no reference, its last word identifying
 * nothing): two concepts sharing a subject word, never one column. stranger-app-10's board
 * handle was mapped onto the staff's published summary. Only a handle onto text: a model
 * reference (`submitter_id`, `buyer_id`) onto a legacy schema's column with no foreign key
 * declared (`submitter uuid`, `buyer text`) is the same person, however the target names it.
 */
function handleOntoProse(model: ModelColumnFacts, target: TargetColumnFacts): boolean {
  if (model.primaryKey || !IDENTIFYING.test(model.name) || target.primaryKey || target.references) return false;
  if (namesAReference(model) || !TEXT_TYPE.test(unqualifiedType(target.type).toLowerCase())) return false;
  const words = tokens(target.name);
  return !IDENTIFYING_WORDS.has(words[words.length - 1] ?? '');
}

function columnScore(model: ModelColumnFacts, target: TargetColumnFacts, renames: Renames, keyedTables: ReadonlyMap<string, TargetIdForm>, tableOf: TableOf, table: TargetTableFacts): number {
  if (target.tenant) return 0;
  if (refersElsewhere(model, target, tableOf) || personOntoOtherReference(model, target, tableOf) || ownKeyOntoReference(model, target, table)) return 0;
  if (handleOntoProse(model, target)) return 0;
  if (amountOntoNoAmount(model, target)) return 0;
  if (otherEvent(model.name, snakeCased(target.name))) return 0;
  const sameType = typeFits(model, target) || uuidAsTextKey(model, target) || (target.vocabulary !== undefined && model.type === 'text') || keyForm(model, target) !== undefined || refForm(model, target, keyedTables) !== undefined;
  if (!sameType) return 0;
  if (model.name === target.name) return 3;
  // A column is also named by its kind: the spec's word for it (`kkumail`, a model alias), the target's domain (`email_address`).
  const kinds = [model.name, ...(model.aliases ?? [])];
  const targetNames = [target.name, ...(target.domain ? [unqualifiedType(target.domain)] : [])];
  let score = Math.max(tokenScore(translated(model.name, renames), target.name), ...kinds.flatMap((k) => targetNames.map((t) => tokenScore(k, t))));
  // People are auth.users rows, or the profile table keyed by them (`public.users`); the table chosen
  // for it under another name (a Prisma `User`) only for a reference naming the same role (`buyerId`
  // for buyer_id, not `decidedById` for student_record_id).
  if (PERSON_REF.test(model.name) && target.references && (PEOPLE_TABLES.includes(target.references.table) || (target.references.table === tableOf('users') && (sharesWord(model.name, target.name) || model.name === 'user_id')))) score += 0.9;
  if (model.primaryKey && target.primaryKey) score += 0.9;
  if (model.vocabulary && target.vocabulary) score += 0.4;
  if (model.hasDefault && target.defaultExpr !== undefined && !otherWordDefault(model, target)) score += 0.2;
  if (model.nullable !== undefined && model.nullable === !target.notNull) score += 0.1;
  return score;
}

/**
 * Greedy best-first matching of model columns to target columns above a threshold, twice: the
 * confident matches first teach token renames (buyer → customer), which the second pass uses.
 */
function matchColumns(model: ModelTableFacts, target: TargetTableFacts, tableOf: TableOf, keyedTables: ReadonlyMap<string, TargetIdForm> = new Map()): Map<string, string> {
  const renames: Renames = new Map();
  for (const [m, t] of greedy(model, target, renames, 0.9, keyedTables, tableOf)) learn(renames, m, t);
  return greedy(model, target, renames, 0.3, keyedTables, tableOf);
}

function greedy(model: ModelTableFacts, target: TargetTableFacts, renames: Renames, threshold: number, keyedTables: ReadonlyMap<string, TargetIdForm>, tableOf: TableOf): Map<string, string> {
  const pairs: { m: string; t: string; score: number }[] = [];
  for (const m of model.columns) for (const t of target.columns) {
    const score = columnScore(m, t, renames, keyedTables, tableOf, target);
    if (score > threshold) pairs.push({ m: m.name, t: t.name, score });
  }
  pairs.sort((a, b) => b.score - a.score || a.m.localeCompare(b.m) || a.t.localeCompare(b.t));
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const p of pairs) {
    if (out.has(p.m) || taken.has(p.t)) continue;
    out.set(p.m, p.t);
    taken.add(p.t);
  }
  // What is left: a single leftover of the same type on both sides (the id renamed to `ref`, say).
  const leftModel = model.columns.filter((c) => !out.has(c.name));
  const leftTarget = target.columns.filter((c) => !taken.has(c.name));
  for (const m of leftModel) {
    // Same type is not same meaning: a title is no stripe_customer_id, whatever is left over.
    // Nor is a sequence number (`order_no`, an identity) a value the model writes, unless it is the key.
    const same = leftTarget.filter((t) => !taken.has(t.name) && typeFits(m, t) && sameMeaning(m, t) && !refersElsewhere(m, t, tableOf) && !personOntoOtherReference(m, t, tableOf) && !ownKeyOntoReference(m, t, target) && (t.serverFilled !== 'identity' || t.primaryKey));
    const sameModel = leftModel.filter((x) => !out.has(x.name) && normalType(x.type) === normalType(m.type));
    if (same.length === 1 && sameModel.length === 1) {
      out.set(m.name, same[0].name);
      taken.add(same[0].name);
    }
  }
  return out;
}

/** A table's name without its schema: `private.student_records` → `student_records`. */
const bareName = (name: string) => name.slice(name.lastIndexOf('.') + 1);

function tableScore(model: ModelTableFacts, target: TargetTableFacts, tableOf: TableOf): number {
  // Tables outside public match only tables of the same schema, or one of the same bare name (a
  // project keeping `student_records` in `private`, read through its functions): scored as that name.
  const sameBareName = bareName(model.name) === bareName(target.name);
  if (model.name.includes('.') !== target.name.includes('.') && !sameBareName) return 0;
  const matched = withKeyPlace(model, target, matchColumns(model, target, tableOf));
  // A table whose key finds no counterpart is not this one.
  if (model.columns.some((c) => c.primaryKey && !matched.has(c.name))) return 0;
  // A key of another type (a bigint or uuid in place of a text one) says little: most of the other columns must match too.
  const keyedOtherwise = model.columns.some((c) => c.primaryKey && keyForm(c, target.columns.find((t) => t.name === matched.get(c.name))!) !== undefined);
  if (keyedOtherwise && (matched.size - 1) / (model.columns.length - 1) <= 0.5) return 0;
  const exact = [...matched].filter(([m, t]) => m === t).length;
  return matched.size / model.columns.length + exact / (2 * model.columns.length) + tokenScore(sameBareName ? bareName(model.name) : model.name, sameBareName ? bareName(target.name) : target.name) / 2;
}

const READ_VERB = /^(get|find|list|lookup|search|my)_/;

/** SQL text without its comments (`--` to the line's end, block comments), string literals kept whole: a table named in a comment is not read. */
function withoutComments(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'|--[^\n]*|\/\*[\s\S]*?\*\//g, (m) => (m.startsWith("'") ? m : ' '));
}

/** The tables a function body reads FROM or JOINs, in order, as model-style names (`public.` left out, quotes removed, lower case). */
function tablesReadIn(source: string): string[] {
  return [...withoutComments(source).matchAll(/\b(?:from|join)\s+((?:"[^"]+"|\w+)(?:\s*\.\s*(?:"[^"]+"|\w+))?)/gi)].map((m) => m[1].replace(/["\s]/g, '').toLowerCase().replace(/^public\./, ''));
}

/**
 * The mapped table whose columns a function's output columns are: the only one that has them all;
 * among several (`id` alone is in every table), the one it returns (`RETURNS <table>`), else the
 * first its body reads FROM. Undefined when none, or still ambiguous (no guess).
 */
function outputSource(f: TargetFunctionFacts, chosen: ReadonlyMap<string, TargetTableFacts>): [string, TargetTableFacts] | undefined {
  if (!f.outColumns.length) return undefined;
  const fits = [...chosen].filter(([, t]) => f.outColumns.every((c) => t.columns.some((x) => x.name === c)));
  if (fits.length <= 1) return fits[0];
  const returned = fits.find(([, t]) => t.name === f.returnsTable);
  if (returned) return returned;
  for (const read of tablesReadIn(f.source)) {
    const found = fits.find(([, t]) => t.name.toLowerCase() === read);
    if (found) return found;
  }
  return undefined;
}

function functionScore(model: ModelFunctionFacts, target: TargetFunctionFacts, renames: Renames): number {
  if (target.trigger || target.args.length !== model.args.length) return 0;
  // An API function is in an exposed schema: public ones match public ones (helpers elsewhere never do).
  if (target.name.includes('.') !== model.name.includes('.')) return 0;
  const readOnly = READ_VERB.test(model.name);
  if (readOnly !== target.readOnly) return 0;
  return Math.max(tokenScore(model.name, target.name), tokenScore(translated(model.name, renames), target.name));
}

/** The key of a target's jsonb answer set to true (jsonTrueField) that is the model's answer: a write the model answers a value for (never a read, never one answering nothing). */
function jsonAnswerField(m: { name: string; answersVoid?: boolean }, f: { returns: string; source: string }): string | undefined {
  return !READ_VERB.test(m.name) && !m.answersVoid && f.returns === 'scalar' ? jsonTrueField(f.source) : undefined;
}

/** The key a jsonb answer sets to true, wherever in the object (`jsonb_build_object('id', v.id, 'deleted', true)`): the answer of a function the model answers a boolean from. */
function jsonTrueField(source: string): string | undefined {
  return /\bjsonb?_build_object\s*\([^;]*?'(\w+)'\s*,\s*true\b/i.exec(withoutComments(source))?.[1];
}

/** The keys a body's json(b)_build_object calls name (`'targetDept', t."targetDept"`); a text value followed by a comma reads as one too, harmless unless it is a mapped column's name. */
function jsonBuiltKeys(source: string): string[] {
  const text = withoutComments(source);
  if (!/\bjsonb?_build_object\s*\(/i.test(text)) return [];
  return [...new Set([...text.matchAll(/(?:\bjsonb?_build_object\s*\(|,)\s*'(\w+)'\s*,/gi)].map((k) => k[1]))];
}

/**
 * The renamed columns of the mapped table a function's jsonb answer is keyed by, in the target's
 * names (model column → key): of the tables its body reads, the one with the most such keys.
 */
function jsonAnswerColumns(f: TargetFunctionFacts, chosen: ReadonlyMap<string, TargetTableFacts>, mapping: TargetMapping): { table: string; columns: Record<string, string> } | undefined {
  const keys = jsonBuiltKeys(f.source);
  if (!keys.length) return undefined;
  const read = new Set(tablesReadIn(f.source));
  let best: { table: string; columns: Record<string, string> } | undefined;
  for (const [modelTable, t] of chosen) {
    if (!read.has(t.name.toLowerCase())) continue;
    const reverse = new Map(Object.entries(mapping.tables?.[modelTable]?.columns ?? {}).flatMap(([k, v]) => (v && v !== k ? [[v, k] as const] : [])));
    const columns = Object.fromEntries(keys.filter((k) => reverse.has(k)).map((k) => [reverse.get(k)!, k]));
    if (Object.keys(columns).length > Object.keys(best?.columns ?? {}).length) best = { table: t.name, columns };
  }
  return best;
}

/** `a.b` → { a: { b: value } } */
function literalDefault(expr: string | undefined): string | undefined {
  const m = expr ? /^'((?:[^']|'')*)'(::[\w ]+)?$/.exec(expr) : null;
  return m ? m[1].replace(/''/g, "'") : undefined;
}

/** `new.owner := auth.uid()` (or `= (select auth.uid())`) in a trigger function's body. */
const CALLER_ASSIGNED = /\bnew\.(\w+)\s*:?=\s*\(?\s*(?:select\s+)?auth\.uid\(\)/gi;

const SQLSTATE_RAISE = /RAISE\s+EXCEPTION\s+'((?:[^']|'')*)'[^;]*ERRCODE\s*=\s*'([^']+)'/gi;

/**
 * The SQLSTATEs of the condition names apps raise with (`using errcode = 'insufficient_privilege'`,
 * PostgreSQL's Appendix A), as Postgres reports them; a five-character code stands for itself.
 */
const CONDITION_CODES: Readonly<Record<string, string>> = {
  raise_exception: 'P0001',
  no_data_found: 'P0002',
  too_many_rows: 'P0003',
  assert_failure: 'P0004',
  insufficient_privilege: '42501',
  invalid_authorization_specification: '28000',
  feature_not_supported: '0A000',
  data_exception: '22000',
  invalid_parameter_value: '22023',
  invalid_text_representation: '22P02',
  null_value_not_allowed: '22004',
  string_data_right_truncation: '22001',
  numeric_value_out_of_range: '22003',
  integrity_constraint_violation: '23000',
  restrict_violation: '23001',
  not_null_violation: '23502',
  foreign_key_violation: '23503',
  unique_violation: '23505',
  check_violation: '23514',
  exclusion_violation: '23P01',
  object_not_in_prerequisite_state: '55000',
  lock_not_available: '55P03',
  undefined_object: '42704',
};

/**
 * A RAISE's ERRCODE as the code a client reads: a five-character code, a condition name Postgres
 * knows (undefined for one not listed), or a PGRST raise's body code as raise-forms.ts writes it.
 */
export function sqlstateOf(errcode: string): string | undefined {
  return bodyCodeOfErrcode(errcode) ?? (SQLSTATE_SHAPE.test(errcode) ? errcode : CONDITION_CODES[errcode.toLowerCase()]);
}

/**
 * How the target's functions (or guards) refuse, read as the model's P0001: the SQLSTATE most of
 * their raises use beside P0001, with every message raised with it. `leftOut`: raises (code and
 * text) a model setting already names the code of (init's coded refusals), not counted.
 */
/**
 * The first words of a raised message, as a refusal convention names it: up to a format's first
 * placeholder or punctuation (`'cannot set status %', new.status`: the rest varies); a quote
 * doubled in the SQL literal is one in the message raised.
 */
export function refusalWord(raised: string): string {
  return raised.replace(/''/g, "'").split(/[:.,%]/)[0].trim();
}

function refusalIn(functions: TargetFunctionFacts[], leftOut: readonly { code: string; text: string }[] = []): { code: string; message: string } | undefined {
  // Raises by SQLSTATE, each with the first words of its messages (a guard per table: `users: …`, `vs_tickets: …`).
  const found = new Map<string, Map<string, number>>();
  for (const f of functions) for (const m of f.source.matchAll(SQLSTATE_RAISE)) {
    const code = sqlstateOf(m[2]);
    if (code === undefined || code === 'P0001' || leftOut.some((c) => c.code === code && c.text === m[1].replace(/''/g, "'"))) continue;
    const word = refusalWord(m[1]);
    if (word === '') continue;
    const words = found.get(code) ?? new Map<string, number>();
    words.set(word, (words.get(word) ?? 0) + 1);
    found.set(code, words);
  }
  const total = (words: Map<string, number>) => [...words.values()].reduce((a, b) => a + b, 0);
  const best = [...found].sort((a, b) => total(b[1]) - total(a[1]))[0];
  if (!best) return undefined;
  // Every message raised with that code, not the commonest alone: one guard's table name would leave the others' refusals unread.
  const words = [...best[1]].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([w]) => escapeRegExp(w));
  return { code: best[0], message: words.length === 1 ? `^${words[0]}` : `^(?:${words.join('|')})` };
}

/**
 * `vocabularies`: model settings paths and the model `table.column` whose target CHECK pins
 * them (`roles` ← `users.role`), and which setting its default is (`pr.initialStatus`).
 */
export interface VocabularySetting {
  /** Absent: no setting holds the column's words (the rules draw them by name: `team_nodes.kind`); only their pairing is proposed. */
  path?: string;
  column: string;
  initialPath?: string;
  /** Values the pack's rules generate by name whatever the setting (map them to the target's own). */
  generatedByName?: string[];
  /**
   * Settings listing some of this vocabulary's values (`staffRoles` of `roles`), each with a
   * pattern naming the schema's helper function that decides it (`staff`: `current_user_is_staff`).
   * Where a default names a value the target's vocabulary lacks (`admin`), init reads the list off
   * that helper's body, or else leaves the missing values out, and says which to confirm.
   * `permissionPath`: the setting naming a permission that also makes such a holder (`house`);
   * null where the helpers read found list roles and none reads a permission.
   */
  subsets?: {
    path: string;
    helper: string;
    permissionPath?: string;
    /**
     * `lettingInPath`: the setting naming a permission whose holder the helper lets in too, where
     * the default names none (`adminPermission`: `is_admin()` as `role = 'admin' or has_permission('master')`).
     */
    lettingInPath?: string;
    /**
     * The setting saying a holder of that permission acts on every department (`vs.permissionScope`
     * = `every-department`), proposed where the helper grants on the permission alone
     * (`when has_permission('vs') then true`, `or has_permission('vs')`): no department compared.
     */
    permissionScope?: { path: string; value: string; permissionPath: string };
    /**
     * The setting listing the roles kept to the caller's own department (`vs.deptScopedRoles`),
     * proposed from the helper's top-level alternatives: the roles of one that also compares with
     * the caller's department (`p_dept = current_user_dept() and has_role('vs_staff', 'vp_admin')`).
     */
    deptScopePath?: string;
  }[];
  /**
   * The setting saying the list is the project's own (`departmentList: "open"`), proposed where
   * the column and each of `alsoColumns` hold no list at all on the target: no CHECK list, enum
   * or foreign key (stranger-app-5's `dept_code` domain checks a format only).
   */
  open?: { path: string; value: string; alsoColumns?: string[] };
}

/** The target columns holding `columns` (model `table.column`), when each is there and holds no list of values (VocabularySetting.open). */
function openVocabulary(columns: string[], chosen: Map<string, TargetTableFacts>, mapping: TargetMapping): string[] | undefined {
  const found: string[] = [];
  for (const qualified of columns) {
    const [table, column] = qualified.split(/\.(?=[^.]+$)/);
    const t = chosen.get(table);
    const c = t?.columns.find((x) => x.name === (mapping.tables?.[table]?.columns?.[column] ?? column));
    if (!t || !c || c.vocabulary || c.references) return undefined;
    found.push(`${t.name}.${c.name}`);
  }
  return found;
}

/**
 * The model's words a target vocabulary lacks, each paired in order with a target word the rules
 * never generate (`committee → root`), so no two model words share one; undefined when too few are spare.
 */
function wordPairing(unknown: readonly string[], vocabulary: readonly string[], generated: readonly string[]): Record<string, string> | undefined {
  // A word the target spells in another case (an ORM's TEAM for team) is that word; the rest take the spare ones in order.
  const spelled = new Map(unknown.flatMap((w) => { const t = targetSpelling(w, vocabulary); return t ? [[w, t] as const] : []; }));
  const spare = vocabulary.filter((w) => !generated.includes(w) && ![...spelled.values()].includes(w));
  const rest = unknown.filter((w) => !spelled.has(w));
  return spare.length >= rest.length ? Object.fromEntries(unknown.map((w) => [w, spelled.get(w) ?? spare[rest.indexOf(w)]])) : undefined;
}

/** Value at a dotted path of nested settings (`vs.handlerRoles`). */
/** An operand naming `column`: an identifier or call (`u.role`, `current_user_role()`), or a token claim (`auth.jwt() ->> 'user_role'`, cast or not). */
function roleOperand(column: string): string {
  const c = escapeRegExp(column);
  return `(?:\\b[\\w.]*${c}\\w*(?:\\s*\\(\\s*\\))?|->>\\s*'\\w*${c}\\w*'(?:\\s*\\))?)(?:\\s*::\\s*[\\w.]+)?`;
}

/** Quoted values in SQL text (`'a'`, `'a'::app_role`), an array literal's elements (`'{a,b}'`) each. */
function quotedValues(list: string): string[] {
  return [...list.matchAll(/'((?:[^']|'')*)'/g)].flatMap((m) => {
    const v = m[1].replace(/''/g, "'");
    return /^\{.*\}$/.test(v) ? v.slice(1, -1).split(',').map((x) => x.trim().replace(/^"|"$/g, '')) : [v];
  });
}

/**
 * The values a function body compares `column` (an identifier or call naming it: `u.role`,
 * `current_user_role()`, a claim `auth.jwt() ->> 'user_role'`) with for a match: `in ('a', 'b')`,
 * `= any (array['a', 'b'])`, `= 'a'`. Not a negated one (`not in`, `<>`), and no other quoted text
 * (a message, a permission).
 */
export function rolesCompared(source: string, column: string): string[] {
  const operand = roleOperand(column);
  const found: string[] = [];
  for (const m of source.matchAll(new RegExp(`${operand}\\s+in\\s*\\(([^)]*)\\)`, 'gi'))) found.push(...quotedValues(m[1]));
  for (const m of source.matchAll(new RegExp(`${operand}\\s*=\\s*any\\s*\\(\\s*(array\\s*\\[[^\\]]*\\]|'\\{[^}]*\\}')`, 'gi'))) found.push(...quotedValues(m[1]));
  for (const m of source.matchAll(new RegExp(`${operand}\\s*=\\s*('(?:[^']|'')*')`, 'gi'))) found.push(...quotedValues(m[1]));
  found.push(...rolesCased(source, operand));
  found.push(...rolesHeldInArray(source, operand));
  return [...new Set(found)];
}

/** An array literal in SQL text: `array['a', 'b']` or `'{a,b}'`, cast or not. */
const ARRAY_LITERAL = `(?:array\\s*\\[[^\\]]*\\]|'\\{[^}]*\\}')(?:\\s*::\\s*[\\w.]+(?:\\[\\])?)?`;

/**
 * The roles a body tests an array of roles for (roles held in an array column or claim:
 * `roles app_role[]`, `auth.jwt() -> 'user_roles'`): `'a' = any (roles)`, `roles && array['a', 'b']`
 * (holds any of them), `roles @> array['a']`, `array['a'] <@ roles`, either side of the operator.
 */
function rolesHeldInArray(source: string, operand: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(new RegExp(`('(?:[^']|'')*')(?:\\s*::\\s*[\\w.]+)?\\s*=\\s*any\\s*\\(\\s*${operand}\\s*\\)`, 'gi'))) found.push(...quotedValues(m[1]));
  for (const m of source.matchAll(new RegExp(`${operand}\\s*(?:&&|@>)\\s*(${ARRAY_LITERAL})`, 'gi'))) found.push(...quotedValues(m[1]));
  for (const m of source.matchAll(new RegExp(`(${ARRAY_LITERAL})\\s*(?:&&|<@)\\s*${operand}`, 'gi'))) found.push(...quotedValues(m[1]));
  return found;
}

/**
 * The values a simple CASE on the column lists for a branch that can grant (`case
 * current_user_role() when 'DEV' then true when 'VP_ADMIN' then p_dept = current_user_dept() else
 * … end`, stranger-app-15's `can_handle_vs`); not one answering false.
 */
function rolesCased(source: string, operand: string): string[] {
  const found: string[] = [];
  for (const c of source.matchAll(new RegExp(`\\bcase\\s+${operand}\\s+(when\\b[\\s\\S]*?)\\bend\\b`, 'gi'))) {
    // A WHEN answering false or null grants nothing.
    for (const w of c[1].matchAll(/\bwhen\s+((?:'(?:[^']|'')*'(?:\s*::\s*[\w."]+)?\s*,?\s*)+)then\s+(\(?\s*(?:false|null)\b)?/gi)) if (!w[2]) found.push(...quotedValues(w[1]));
  }
  return found;
}

/**
 * Helpers taking the roles as arguments (`has_role(variadic p_roles app_role[])`,
 * `has_any_role(roles text[])`): their body compares `column` with something other than a quoted
 * value (`p.role = any (p_roles)`, `role = p_role`). Their callers name the roles.
 */
export function roleParameterHelpers(helpers: { name: string; source: string }[], column: string): string[] {
  // Not a cast (`'pr_staff'::app_role = any(u.roles)` names a role), nor a qualified column (`u.roles`) for the parameter.
  const compared = new RegExp(`(?<!::\\s*)${roleOperand(column)}\\s*(?:=\\s*any\\s*\\(\\s*|=\\s*|in\\s*\\(\\s*)(?!array\\b)[a-z_$][\\w$]*\\b(?!\\s*[(.])`, 'i');
  return helpers.filter((h) => compared.test(h.source) || comparesArrayWithParameter(h.source, column)).map((h) => h.name);
}

/**
 * A body testing an array of roles against its parameter (`roles && wanted`, `wanted && roles`,
 * `p_role = any (roles)`, `roles @> array[p_role]`): a helper taking the roles, for roles held in
 * an array column or claim (`app.has_role(variadic wanted app_role[])` over `auth.jwt() -> 'user_roles'`).
 */
function comparesArrayWithParameter(source: string, column: string): boolean {
  const operand = roleOperand(column);
  const parameter = `(?!array\\b)[a-z_$][\\w$]*\\b(?!\\s*\\()`;
  return new RegExp(`${operand}\\s*(?:&&|@>)\\s*(?:${parameter}|array\\s*\\[\\s*${parameter}\\s*\\])`, 'i').test(source)
    // Not after `::`: `'pr_staff'::app_role = any(roles)` names a role, its cast no parameter.
    || new RegExp(`(?:^|[^\\w$.':])${parameter}\\s*(?:&&\\s*|=\\s*any\\s*\\(\\s*)${operand}`, 'i').test(source);
}

/** The quoted values a body passes to these helpers (`public.has_role('vs_staff', 'admin')`, `has_any_role(array['a'])`). */
export function rolesPassed(source: string, helperNames: string[]): string[] {
  const found: string[] = [];
  for (const name of helperNames) {
    const call = new RegExp(`(?:^|[^\\w$"])"?${escapeRegExp(name)}"?\\s*\\(`, 'gi');
    for (const m of source.matchAll(call)) {
      // The call's arguments: to its closing parenthesis, nested ones (a cast, an array) kept.
      let depth = 1;
      let i = m.index! + m[0].length;
      const start = i;
      for (; i < source.length && depth > 0; i++) if (source[i] === '(') depth++; else if (source[i] === ')') depth--;
      found.push(...quotedValues(source.slice(start, i - 1)));
    }
  }
  return [...new Set(found)];
}

/**
 * Lists of a vocabulary's values (who is staff, admin, a handler), read off the body of the helper
 * each list's pattern names (`current_user_is_staff`: the roles it compares the role column with,
 * or passes to a helper taking roles, `has_role('vs_staff', 'admin')`). Proposed where they differ
 * from the default: a default naming a value the target's vocabulary lacks (`admin`) would make
 * every rule a harness error, and one naming a role the helper leaves out (`dev`) FAILs of the
 * schema's own choice. With no such helper, a default naming a missing value is named to be set.
 * Pure: the caller reads the helpers' sources.
 */
export function proposeVocabularySubsets(
  vocabularies: VocabularySetting[],
  proposed: Record<string, unknown>,
  defaults: unknown,
  helpers: { name: string; source: string; returns?: string }[],
): { settings: Record<string, unknown>; notes: string[] } {
  const settings: Record<string, unknown> = {};
  const notes: string[] = [];
  for (const v of vocabularies) {
    if (!v.path) continue;
    const values = valueAtPath(proposed, v.path);
    if (!Array.isArray(values)) continue;
    const column = v.column.split('.').pop()!;
    const takingRoles = roleParameterHelpers(helpers, column);
    const predicates = new Map(helpers.filter((h) => (h.returns === undefined || h.returns === 'boolean') && !takingRoles.includes(h.name)).map((h) => [h.name, h.source]));
    // The roles a predicate lists: those it compares or passes on, and those of the predicates it
    // calls as they are (`current_user_is_staff() or role in ('uni_staff')`), not negated ones.
    const listedMemo = new Map<string, string[]>();
    const listed = (name: string): string[] => {
      if (listedMemo.has(name)) return listedMemo.get(name)!;
      listedMemo.set(name, []);
      const source = predicates.get(name) ?? '';
      const calls = [...source.matchAll(/(\bnot\s+)?(?:[\w$"]+\s*\.\s*)?"?([A-Za-z_][\w$]*)"?\s*\(\s*\)/gi)].filter((m) => !m[1] && m[2] !== name && predicates.has(m[2])).map((m) => m[2]);
      const found = [...new Set([...rolesCompared(source, column), ...rolesPassed(source, takingRoles), ...calls.flatMap(listed)])];
      listedMemo.set(name, found);
      return found;
    };
    for (const sub of v.subsets ?? []) {
      const fallback = valueAtPath(defaults, sub.path);
      if (!Array.isArray(fallback)) continue;
      const missing = fallback.filter((x) => !values.includes(x));
      const pattern = new RegExp(sub.helper, 'i');
      // A predicate (returns boolean) named for the list, read for the roles it compares its column with or passes on.
      const read = helpers
        .filter((h) => pattern.test(h.name) && predicates.has(h.name))
        .map((h) => ({ name: h.name, listed: listed(h.name).filter((x) => (values as string[]).includes(x)) }))
        .filter((h) => h.listed.length > 0);
      const fromHelper = [...new Set(read.flatMap((h) => h.listed))];
      const readHelpers = read.map((h) => helpers.find((x) => x.name === h.name)!);
      if (sub.permissionPath) impliedPermissions(readHelpers, valueAtPath(defaults, sub.permissionPath), settings, notes);
      if (sub.permissionPath) permissionTestedInstead(readHelpers, sub.permissionPath, valueAtPath(defaults, sub.permissionPath), settings, notes);
      if (sub.lettingInPath) permissionLettingIn(readHelpers, sub.lettingInPath, settings, notes);
      if (sub.permissionScope) permissionUnscoped(readHelpers, sub.permissionScope, valueAtPath(defaults, sub.permissionScope.permissionPath), settings, notes);
      // No helper says who they are: a guess (the default without the missing values) would run the
      // rules with a meaning nobody stated, and its wrong answers would be FAILs. Left to the
      // default, the rules that use it stop with a harness error naming the gap instead.
      const roleFree = fromHelper.length || !missing.length ? [] : roleFreePredicates(helpers, pattern, predicates);
      if (roleFree.length) {
        setPath(settings, sub.path, []);
        notes.push(`confirm: model.${sub.path}: none (${roleFree.join(', ')} decides without reading any role; the default names ${missing.join(', ')}, which ${v.column} does not allow)`);
        continue;
      }
      if (!fromHelper.length) {
        if (missing.length) notes.push(`set model.${sub.path}: the default names ${missing.join(', ')}, which ${v.column} does not allow, and no helper named like /${sub.helper}/ lists who they are (until it is set, the rules using it stop with a harness error naming it)`);
        continue;
      }
      if (sub.permissionPath) roleOnlyHelpers(readHelpers, helpers, sub.permissionPath, valueAtPath(defaults, sub.permissionPath), settings, notes);
      if (sub.deptScopePath) deptScopedRoles(readHelpers, sub.deptScopePath, valueAtPath(defaults, sub.deptScopePath), (source) => [...rolesCompared(source, column), ...rolesPassed(source, takingRoles)].filter((x) => (values as string[]).includes(x)), settings, notes);
      const leftOut = fallback.filter((x) => !fromHelper.includes(x));
      const added = fromHelper.filter((x) => !fallback.includes(x));
      if (!leftOut.length && !added.length) continue;
      setPath(settings, sub.path, fromHelper);
      const unlike = missing.length
        ? `the default names ${missing.join(', ')}, which ${v.column} does not allow`
        : `the default is ${fallback.join(', ')}`;
      notes.push(`confirm: model.${sub.path}: ${fromHelper.join(', ')} (the roles ${read.map((h) => h.name).join(', ')} lists; ${unlike})`);
    }
  }
  return { settings, notes };
}

/** The caller's department in SQL text: `current_user_dept()` (any schema, any name around it) or a `user_dept` claim. */
// A call (`current_user_dept()`), a claim (`->> 'user_dept'`) or a request setting (`current_setting('app.dept')`); not any literal (`has_role('dept_admin')` names a role).
const CALLERS_DEPARTMENT = /\b\w*dept\w*\s*\(\s*\)|->>\s*'\w*dept\w*'|current_setting\s*\(\s*'[\w.]*dept[\w.]*'/i;

/**
 * Roles a handler helper keeps to the caller's department (stranger-app-14's can_handle_vs:
 * `is_admin() or (p_dept = current_user_dept() and has_role('vs_staff', 'vp_admin'))`): the roles
 * of its top-level alternatives that compare with the caller's department, less those another
 * alternative lets in anyway. Proposed where they differ from the default (vp_admin alone, the spec's
 * example); before, a vs_staff of another department was expected to see every ticket (false alarms).
 */
function deptScopedRoles(helpers: readonly { name: string; source: string }[], path: string, fallback: unknown, rolesIn: (source: string) => string[], settings: Record<string, unknown>, notes: string[]): void {
  if (!Array.isArray(fallback)) return;
  const scoped = new Set<string>();
  const free = new Set<string>();
  for (const h of helpers) {
    const answer = answerOf(h.source);
    if (answer === undefined || caseBranches(answer)) continue;
    const expr = withoutFalseCoalesce(answer) ?? answer;
    const onRole = simpleCaseBranches(expr);
    if (onRole) {
      // `case current_user_role() when 'dev' then true when 'vp_admin' then p_dept = current_user_dept() … end`: each WHEN's roles by their own THEN.
      for (const b of onRole.branches) if (!/^false$/i.test(b.result)) for (const role of rolesIn(`${onRole.operand} in (${b.values})`)) (CALLERS_DEPARTMENT.test(b.result) ? scoped : free).add(role);
      continue;
    }
    for (const alternative of topLevelDisjuncts(expr)) for (const role of rolesIn(alternative)) (CALLERS_DEPARTMENT.test(alternative) ? scoped : free).add(role);
  }
  const found = [...scoped].filter((r) => !free.has(r));
  if (!found.length || (found.length === fallback.length && found.every((r) => fallback.includes(r)))) return;
  setPath(settings, path, found);
  notes.push(`confirm: model.${path}: ${found.join(', ')} (${helpers.map((h) => h.name).join(', ')} keeps them to the caller's department; the default is ${fallback.join(', ')})`);
}

/**
 * Handler helpers that read the role only (no permission): the default's permission, which also
 * makes a handler, proposed null. Whether or not the roles they list differ from the default
 * (stranger-app-12's current_user_is_shop_staff lists the default's roles exactly, and a `house`
 * holder's own order was expected editable by them: a false alarm).
 */
function roleOnlyHelpers(helpers: readonly { name: string; source: string }[], all: readonly { name: string; source: string }[], permissionPath: string, permission: unknown, settings: Record<string, unknown>, notes: string[]): void {
  if (typeof permission !== 'string' || !helpers.length || helpers.some((h) => readsPermission(h, all))) return;
  setPath(settings, permissionPath, null);
  notes.push(`confirm: model.${permissionPath}: null (${helpers.map((h) => h.name).join(', ')} reads the role only; the default also makes a holder of the ${permission} permission one)`);
}

/**
 * Whether a helper's body names a permission, or calls a project function (of `all`) that does, a
 * few calls deep: `current_user_can_handle_shop()` calling `app.has_perm('house')` reads one.
 */
function readsPermission(helper: { name: string; source: string }, all: readonly { name: string; source: string }[], seen = new Set<string>()): boolean {
  // Code only: a `raise exception 'permission denied'` or a comment reads none; a claim key (`->> 'user_permissions'`) does.
  const code = withoutComments(helper.source).replace(/(->>?\s*)?'(?:[^']|'')*'/g, (m, claim: string | undefined) => (claim ? m : "''"));
  if (/permission/i.test(code)) return true;
  seen.add(helper.name);
  const called = [...helper.source.matchAll(/"?([A-Za-z_][\w$]*)"?\s*\(/g)].map((m) => m[1]);
  return all.some((f) => !seen.has(f.name) && called.includes(f.name) && readsPermission(f, all, seen));
}

/**
 * A handler helper that also lets in holders of another permission than the setting's one
 * (stranger-app-7's can_handle_shop: `has_permission('house') or has_permission('master')`): the
 * other implies it, `permissionImplies.master = ["house"]`, as the helper decides. Without it a
 * `master` holder reading a buyer's order was a false alarm.
 */
function impliedPermissions(helpers: readonly { name: string; source: string }[], permission: unknown, settings: Record<string, unknown>, notes: string[]): void {
  if (typeof permission !== 'string') return;
  for (const h of helpers) {
    const tested = permissionsTested(h.source);
    if (!tested.includes(permission)) continue;
    for (const other of new Set(tested.filter((p) => p !== permission))) {
      const implies = ((settings.permissionImplies ??= {}) as Record<string, string[]>);
      if ((implies[other] ??= []).includes(permission)) continue;
      implies[other].push(permission);
      notes.push(`confirm: model.permissionImplies.${other}: ["${permission}"] (${h.name} lets a holder of ${other} in as one of ${permission})`);
    }
  }
}

/**
 * The permissions a helper's body tests (`has_permission('master')`, any helper named so) as a
 * way in: a negated test (`not has_permission('banned')`, `has_permission('banned') = false`)
 * keeps its holders out, and names no permission that lets anyone in.
 */
const permissionsTested = (source: string): string[] =>
  [...source.matchAll(/has_permission"?\s*\(\s*'([\w-]+)'(?:\s*\))?/gi)].filter((m) => !negatedTest(source, m.index!, m.index! + m[0].length)).map((m) => m[1]);

/** The call at [from, to) is negated: `not [schema.]f(…)` (through parentheses too) or `f(…) = false` / `is false` / `is not true`. */
function negatedTest(source: string, from: number, to: number): boolean {
  const before = source.slice(0, from).replace(/(?:[\w$"]+\s*\.\s*)?"?\w*$/, '');
  return /\bnot\s*(?:\(\s*)*$/i.test(before) || /^\s*(?:=\s*false\b|is\s+false\b|is\s+not\s+true\b)/i.test(source.slice(to));
}

/**
 * A handler helper testing one other permission and never the setting's (stranger-app-10's
 * can_handle_shop: `role in (…) or has_permission('master')`, where the default is `house`): that
 * permission makes a handler. Without it a `master` holder handling an order was a false alarm.
 */
function permissionTestedInstead(helpers: readonly { name: string; source: string }[], path: string, permission: unknown, settings: Record<string, unknown>, notes: string[]): void {
  if (typeof permission !== 'string') return;
  const tested = [...new Set(helpers.flatMap((h) => permissionsTested(h.source)))];
  if (tested.length !== 1 || tested[0] === permission) return;
  setPath(settings, path, tested[0]);
  notes.push(`confirm: model.${path}: ${tested[0]} (${helpers.map((h) => h.name).join(', ')} tests it, never ${permission}, the default)`);
}

/**
 * A helper that lets the holder of one permission in besides the roles it lists (stranger-app-19's
 * is_admin: `role = 'admin' or has_permission('master')`), where the setting names none by
 * default: that permission, proposed. Without it a `user` holding `master` reading every passport
 * profile was a FAIL. Two permissions tested: none proposed (the setting holds one).
 */
function permissionLettingIn(helpers: readonly { name: string; source: string }[], path: string, settings: Record<string, unknown>, notes: string[]): void {
  // A whole top-level alternative of the answer: `role = 'admin' and has_permission('x')` lets no holder in alone.
  const alone = /^(?:[\w$"]+\s*\.\s*)?"?\w*has_permission"?\s*\(\s*'([\w-]+)'\s*\)$/i;
  const tested = [
    ...new Set(
      helpers.flatMap((h) => {
        const answer = answerOf(h.source);
        if (answer === undefined) return [];
        return topLevelDisjuncts(withoutFalseCoalesce(answer) ?? answer).flatMap((d) => alone.exec(stripOuterParens(d))?.[1] ?? []);
      }),
    ),
  ];
  if (tested.length !== 1) return;
  setPath(settings, path, tested[0]);
  notes.push(`confirm: model.${path}: ${tested[0]} (${helpers.map((h) => h.name).join(', ')} lets a holder of ${tested[0]} in besides its roles)`);
}

/**
 * A handler helper granting on the permission alone, no department compared in that branch
 * (stranger-app-10's can_handle_vs: `when current_user_has_permission('vs') then true`;
 * `… or has_permission('vs')`): a holder acts on every department. Only at the top level of the
 * helper's answer or of a CASE branch answering true: `p_dept = current_user_dept() and (role =
 * 'vs_staff' or has_permission('vs'))` keeps a holder to their department.
 */
function permissionUnscoped(helpers: readonly { name: string; source: string }[], scope: { path: string; value: string; permissionPath: string }, permission: unknown, settings: Record<string, unknown>, notes: string[]): void {
  if (typeof permission !== 'string') return;
  const test = new RegExp(`^(?:[\\w$"]+\\s*\\.\\s*)?"?\\w*has_permission"?\\s*\\(\\s*'${escapeRegExp(permission)}'\\s*\\)$`, 'i');
  const granting = helpers.filter((h) => {
    const answer = answerOf(h.source);
    return answer !== undefined && grantsOn(answer, test);
  });
  if (!granting.length) return;
  setPath(settings, scope.path, scope.value);
  notes.push(`confirm: model.${scope.path}: ${scope.value} (${granting.map((h) => h.name).join(', ')} lets a holder of ${permission} in whatever the department)`);
}

/**
 * `coalesce(<expr>, false)`'s `<expr>`, the fail-closed idiom (rule 8: an unknown answer is a
 * denial), which is true exactly when `<expr>` is (stranger-app-13's `authz.can_handle_vs`);
 * undefined for any other expression.
 */
function withoutFalseCoalesce(expr: string): string | undefined {
  const s = stripOuterParens(expr);
  const m = /^coalesce\s*\(([\s\S]*),\s*false\s*\)$/i.exec(s);
  // The coalesce must be the whole expression: in `coalesce(a, false) or coalesce(b, false)` its parenthesis closes early.
  return m && m[1].trim() && closingParenOf(s, s.indexOf('(')) === s.length - 1 ? m[1] : undefined;
}

/** Where the parenthesis opened at `open` closes (quotes skipped), or -1. */
function closingParenOf(text: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/** The expression a helper's body answers, where that is all it is: `select <expr>`, plpgsql's `begin return <expr>; end`, or guard clauses before a last RETURN read as a CASE (plpgsql-guard-clauses.ts). */
function answerOf(source: string): string | undefined {
  const body = withoutComments(source).trim();
  return (/^begin\s+return\s+([\s\S]*?)\s*;\s*end\s*;?$/i.exec(body) ?? /^(?:select|return)\s+([\s\S]*?)\s*;?$/i.exec(body))?.[1] ?? guardClausesAsCase(body);
}

/** `expr` is true whenever `test` is: `test` is one of its top-level alternatives, or the condition of a CASE branch answering true. */
function grantsOn(expr: string, test: RegExp): boolean {
  const failClosed = withoutFalseCoalesce(expr);
  if (failClosed !== undefined) return grantsOn(failClosed, test);
  const branches = caseBranches(expr);
  if (branches) {
    // An ELSE answering an expression the test grants lets the holder in outside every WHEN (a vp_admin
    // branch scoping that role alone): only where every WHEN not answering true tests the role, since
    // a WHEN on anything else (`p_dept is distinct from authz.dept() then false`) keeps the holder out first.
    const otherwise = caseElse(expr);
    const elseReachesHolders = branches.every((b) => /^true$/i.test(stripOuterParens(b.result)) || /\brole\b|_role\b/i.test(b.condition));
    return branches.some((b) => /^true$/i.test(stripOuterParens(b.result)) && grantsOn(b.condition, test)) || (otherwise !== undefined && elseReachesHolders && grantsOn(otherwise, test));
  }
  const alternatives = topLevelDisjuncts(expr);
  return alternatives.length > 1 ? alternatives.some((a) => grantsOn(a, test)) : test.test(stripOuterParens(expr));
}

/**
 * Predicates named for a role list that read no role at all, themselves or through what they call
 * (stranger-app-3's current_user_is_project_actor: owning a project or a sign request): no role
 * makes one, so the list is empty. A helper mentioning a role anywhere is left to the readers above.
 */
function roleFreePredicates(helpers: { name: string; source: string }[], pattern: RegExp, predicates: Map<string, string>): string[] {
  const readingRoles = helpers.filter((h) => /role/i.test(h.source)).map((h) => h.name);
  const readsRole = (source: string) => /role/i.test(source) || readingRoles.some((name) => new RegExp(`\\b${name}\\s*\\(`, 'i').test(source));
  return helpers.filter((h) => pattern.test(h.name) && predicates.has(h.name) && !readsRole(h.source)).map((h) => h.name);
}

/**
 * `apiSchema`: the API's default schema (config.toml's first `[api] schemas` entry), where a
 * request naming no profile lands. A project exposing `api` (views and functions over tables in
 * a schema the API never reaches) keeps there what the model calls by its bare name: its names
 * are matched as bare ones are, and proposed qualified (`users` → `api.users`).
 */
/**
 * The refusal conventions of the target's definer functions and of its guards (triggers), each
 * only where the model has such functions or guards (a pack with neither met Capgo's 42501s as
 * noise). `leftOut`: refusals a model setting names the code of, not counted (init re-reads the
 * conventions without them: stranger-app-7's NOT_AUTHORIZED as 42501 was its commonest code, so
 * once refusals.codes named it the argument errors' 22023 went unread).
 */
export function refusalConventions(
  model: { tables: Pick<ModelTableFacts, 'guarded'>[]; functions: readonly unknown[] },
  target: Pick<TargetFacts, 'functions'>,
  leftOut: readonly { code: string; text: string }[] = [],
): { functionRefusal?: { code: string; message: string }; guardRefusal?: { code: string; message: string } } {
  const definers = model.functions.length ? target.functions.filter((f) => !f.trigger) : [];
  const triggers = model.tables.some((t) => t.guarded) ? target.functions.filter((f) => f.trigger) : [];
  const functionRefusal = refusalIn(definers, leftOut);
  const guardRefusal = refusalIn(triggers, leftOut);
  return { ...(functionRefusal ? { functionRefusal } : {}), ...(guardRefusal ? { guardRefusal } : {}) };
}

export function proposeMapping(
  model: { tables: ModelTableFacts[]; functions: ModelFunctionFacts[]; /** The model's views (computed, never written): named, never proposed columns. */ views?: readonly string[] },
  target: TargetFacts,
  vocabularies: VocabularySetting[] = [],
  apiSchema = 'public',
): Proposal {
  // A multi-tenant target's tenant column is the harness's (fixtures.tenantColumn), never a model column's.
  const tenant = tenantColumnIn(target);
  const proposal = proposeInSchema(model, withTenantColumnMarked(target, tenant), vocabularies, apiSchema);
  return tenant ? { ...proposal, tenantColumn: tenant.column, notes: [...proposal.notes, tenantColumnNote(tenant)] } : proposal;
}

function proposeInSchema(
  model: { tables: ModelTableFacts[]; functions: ModelFunctionFacts[]; views?: readonly string[] },
  target: TargetFacts,
  vocabularies: VocabularySetting[],
  apiSchema: string,
): Proposal {
  if (apiSchema === 'public') return proposeOnDefaultSchema(model, target, vocabularies);
  const prefix = `${apiSchema}.`;
  const folded = foldedSchemaNames(model, target, prefix);
  // A public table beside the default schema's is named `public.x`; the default schema's by its bare name.
  const relative = (name: string) => folded.get(name) ?? (name.startsWith(prefix) ? name.slice(prefix.length) : name.includes('.') ? name : `public.${name}`);
  const proposal = proposeOnDefaultSchema(
    model,
    {
      tables: target.tables.map((t) => ({ ...t, name: relative(t.name), columns: t.columns.map((c) => (c.references ? { ...c, references: { ...c.references, table: relative(c.references.table) } } : c)) })),
      functions: target.functions.map((f) => ({ ...f, name: relative(f.name) })) },
    vocabularies,
  );
  const homeTables = new Set(target.tables.filter((t) => t.name.startsWith(prefix)).map((t) => relative(t.name)));
  const homeFunctions = new Set(target.functions.filter((f) => f.name.startsWith(prefix)).map((f) => relative(f.name)));
  const { mapping, notes } = proposal;
  const unfolded = new Map([...folded].map(([targetName, modelName]) => [modelName, targetName]));
  for (const m of model.tables) {
    const name = mapping.tables?.[m.name]?.name ?? m.name;
    if (homeTables.has(name)) (mapping.tables ??= {})[m.name] = { ...mapping.tables?.[m.name], name: unfolded.get(name) ?? prefix + name };
  }
  for (const m of model.functions) {
    const name = mapping.functions?.[m.name]?.name ?? m.name;
    if (homeFunctions.has(name)) (mapping.functions ??= {})[m.name] = { ...mapping.functions?.[m.name], name: unfolded.get(name) ?? prefix + name };
  }
  // A view of the model's the API keeps under another name: named only (its columns are the user's to map).
  for (const [targetName, modelName] of folded) if (model.views?.includes(modelName)) ((mapping.tables ??= {})[modelName] ??= {}).name = targetName;
  for (const [targetName, modelName] of folded) {
    // The table's own note named it as read (`passport.profiles is passport.profiles`): by its name in the API instead.
    const own = notes.findIndex((n) => n.startsWith(`confirm: model table ${modelName} is ${modelName}`));
    if (own >= 0) notes[own] = notes[own].replace(`is ${modelName}`, `is ${targetName}`);
    notes.push(`confirm: model ${modelName} is ${targetName} (the API exposes one schema, which keeps ${modelName.split('.')[0]}'s objects too)`);
  }
  return proposal;
}

/**
 * The model's objects of another schema (`passport.profiles`, `passport.admin_leaderboard`) that a
 * project exposing one API schema keeps in it, by the schema-prefixed name (`api.passport_profiles`)
 * or the bare one (`api.admin_leaderboard`, where the model has no bare object of that name): target
 * name → the model's, for the objects the target lacks under the model's own name. stranger-app-17
 * (`schemas = ["api"]`) had rules 19 and 20 "not applicable: missing passport.profiles".
 */
function foldedSchemaNames(model: { tables: readonly { name: string }[]; functions: readonly { name: string }[]; views?: readonly string[] }, target: TargetFacts, prefix: string): Map<string, string> {
  const folded = new Map<string, string>();
  for (const [modelNames, targetNames] of [
    [[...model.tables.map((t) => t.name), ...(model.views ?? [])], new Set([...target.tables.map((t) => t.name), ...(target.relations ?? [])])],
    [model.functions.map((f) => f.name), new Set(target.functions.map((f) => f.name))],
  ] as const) {
    for (const name of modelNames) {
      const [schema, bare] = name.split('.');
      if (!bare || `${schema}.` === prefix || schema === 'public' || targetNames.has(name)) continue;
      const held = [`${prefix}${schema}_${bare}`, ...(modelNames.includes(bare) ? [] : [`${prefix}${bare}`])].find((n) => targetNames.has(n) && !folded.has(n));
      if (held) folded.set(held, name);
    }
  }
  return folded;
}

/**
 * `conventions.grants = supabase-default` where the project lets row security decide: anon holds
 * SELECT on every mapped table in public, or Supabase's default privileges are kept and most of
 * them hold it (stranger-app-7 revoked anon from project_settings alone, a table the spec keeps
 * from anon, and every other table's "refused by the grant" was a false alarm). Undefined: explicit grants.
 */
function supabaseDefaultGrantsNote(mapped: readonly TargetTableFacts[], defaultPrivilegesKept: boolean): string | undefined {
  if (!mapped.length) return undefined;
  const revoked = mapped.filter((t) => !t.anonCanSelect).map((t) => t.name);
  if (!revoked.length) return 'confirm: anon holds SELECT on every mapped table in public (Supabase default privileges left in place): conventions.grants = supabase-default, row security decides';
  if (!defaultPrivilegesKept || revoked.length * 2 >= mapped.length) return undefined;
  return `confirm: Supabase's default privileges are kept in public and anon holds SELECT on ${mapped.length - revoked.length} of ${mapped.length} mapped tables (revoked on ${revoked.join(', ')}): conventions.grants = supabase-default, row security decides`;
}

/**
 * Under Supabase's default privileges, a mapped table in public whose privileges the project
 * revoked from anon (`revoke all on team_members from anon`) holds what the catalog shows:
 * `tableGrants.<t>.anon`, so the model expects the grant's refusal there. Without it anon's read
 * of team_members, which rule 11 empties, was a FAIL on stranger-app-12 ("database answered 42501
 * (grant), model expected success"); the setting (not a looser reading) keeps a missing grant on a
 * table anon should read a finding.
 */
function revokedAnonGrants(chosen: ReadonlyMap<string, TargetTableFacts>, notes: string[]): void {
  for (const [name, t] of chosen) {
    if (t.anonCanSelect || !t.grants || t.name.includes('.')) continue;
    // Named, never written: copying the catalog's grants into the model would pass a grant the spec
    // needs (rule 10's public projects, revoked from anon) as the project's choice. A table the spec
    // lets anon read nothing of (team_members, rule 11) is the user's to confirm; R16 names the setting.
    notes.push(`check: anon holds ${t.grants.anon.join(', ') || 'nothing'} on ${t.name} (revoked, where Supabase's defaults grant it): if the spec lets anon read none of its rows, write model.tableGrants.${name}.anon: ${JSON.stringify(t.grants.anon)}; else it is a finding of rule 16`);
  }
}

/** Target columns a column grant names, as the model table's columns (renamed back; the ones the model lacks left out); undefined for no grant. */
function grantedModelColumns(mapping: TargetMapping, name: string, m: ModelTableFacts, granted: readonly string[] | undefined): string[] | undefined {
  const renamed = mapping.tables?.[name]?.columns ?? {};
  const asModel = (c: string) => Object.entries(renamed).find(([, v]) => v === c)?.[0] ?? (c in renamed ? undefined : c);
  return granted?.map(asModel).filter((c): c is string => c !== undefined && m.columns.some((x) => x.name === c));
}

/**
 * Column-level SELECT grants (`grant select (id, title, …) on vs_tickets to authenticated`, rule 12's
 * allow-list; stranger-app-12): a role holding no table-level SELECT is refused `select=*` (42501).
 * Named in a `check:` note with the setting to write, never written: copying the catalog would pass a
 * column the spec needs readable, left ungranted, as the project's choice. With the setting the
 * role's reads name those columns (engine/model/granted-columns.ts); without it R16's whole-row read
 * and every read of the table by that role fail, naming `tableGrants.<t>.columnSelect`.
 */
function columnSelectGrants(chosen: ReadonlyMap<string, TargetTableFacts>, modelTables: readonly ModelTableFacts[], mapping: TargetMapping, notes: string[]): void {
  for (const [name, t] of chosen) {
    const byColumns = t.grants?.columnSelect;
    const m = modelTables.find((x) => x.name === name);
    if (!byColumns || !m) continue;
    for (const role of ['anon', 'authenticated'] as const) {
      const columns = grantedModelColumns(mapping, name, m, byColumns[role]);
      if (!columns) continue;
      const setting = { [role]: t.grants![role], columnSelect: { [role]: columns } };
      notes.push(
        `check: ${role} may SELECT ${byColumns[role]!.join(', ')} of ${t.name} only (column grants: PostgREST's select=* is refused with 42501): if the spec lets ${role} read no more of it (rule 12's column allow-list), write model.tableGrants.${name}: ${JSON.stringify(setting)} (beside any columnUpdate), and its reads name those columns; else it is a finding of rule 16`,
      );
    }
  }
}

/**
 * The project's own roles' privileges on a mapped table (`grant select, delete on reports to
 * app_admin`, the role granted to authenticator): written as `tableGrants.<t>.<role>`, which the
 * spec says nothing of, so the catalog's are the only statement of them; rule 16 then compares
 * them, and a request run as the role is predicted with them. A pack's own model states them in
 * its table's `grants` instead (the note says so where the setting is not the pack's).
 */
function projectRoleGrants(chosen: ReadonlyMap<string, TargetTableFacts>, settings: Record<string, unknown>, notes: string[]): void {
  for (const [name, t] of chosen) {
    for (const [role, privileges] of Object.entries(t.projectRoleGrants ?? {})) {
      // by key, not setPath: a table name may hold a dot (passport.profiles)
      (((settings.tableGrants ??= {}) as Record<string, Record<string, unknown>>)[name] ??= {})[role] = privileges;
      notes.push(`confirm: model.tableGrants.${name}.${role}: ${JSON.stringify(privileges)} (the project's own role ${role}, granted to authenticator, holds ${privileges.join(', ')} on ${t.name}: a request whose token's role claim names it runs as it)`);
    }
  }
}

/**
 * A model function whose namesake has a parameter without a name (`create function
 * get_vs_ticket_by_id(bigint)`): PostgREST v12.2 leaves it out of its schema cache unless that is
 * its one parameter and json, jsonb, text, xml or bytea (which then takes the whole body, not an
 * argument by name), so no REST call reaches it; pairing the model's parameter with `$1` would send
 * `{"$1": …}`, which names nothing. Said, not mapped: every call answers PGRST202.
 */
function unreachableFunctionNotes(modelFunctions: readonly ModelFunctionFacts[], targetFns: ReadonlyMap<string, TargetFunctionFacts>, notes: string[]): void {
  for (const m of modelFunctions) {
    const f = targetFns.get(m.name);
    if (!f || !f.args.some((a) => a.unnamed)) continue;
    const signature = `${f.name}(${f.args.map((a) => (a.unnamed ? a.type : `${a.name} ${a.type}`)).join(', ')})`;
    notes.push(
      callableThroughRest(f.args)
        ? `check: ${signature} takes the whole request body as its unnamed parameter (PostgREST calls it so for a POST with a JSON body), not the model's ${m.args.join(', ') || 'arguments'} by name: name its parameters to test ${m.name} as the model calls it`
        : `check: ${signature} has a parameter without a name: PostgREST v12.2 leaves such a function out of its schema cache, so no REST call reaches it and every call of the model's ${m.name} answers PGRST202; name its parameters (${m.args.join(', ') || '…'}) to test it`,
    );
  }
}

function proposeOnDefaultSchema(
  model: { tables: ModelTableFacts[]; functions: ModelFunctionFacts[] },
  target: TargetFacts,
  vocabularies: VocabularySetting[],
): Proposal {
  const notes: string[] = [];
  const mapping: TargetMapping = { tables: {}, functions: {}, conventions: {} };
  const settings: Record<string, unknown> = {};
  const byName = new Map(target.tables.map((t) => [t.name, t]));
  const chosen = new Map<string, TargetTableFacts>();

  // Tables: the model's name when the target has it, else the best-scoring unclaimed table.
  const claimed = new Set(model.tables.map((t) => t.name).filter((n) => byName.has(n)));
  const candidates: { m: ModelTableFacts; t: TargetTableFacts; score: number }[] = [];
  for (const m of model.tables) {
    if (byName.has(m.name)) {
      chosen.set(m.name, byName.get(m.name)!);
      continue;
    }
    // Before tables are chosen, a reference points at the target's namesake of the model's table, if it has one.
    for (const t of target.tables) if (!claimed.has(t.name)) candidates.push({ m, t, score: tableScore(m, t, (x) => (byName.has(x) ? x : undefined)) });
  }
  candidates.sort((a, b) => b.score - a.score);
  for (const c of candidates) {
    if (c.score < 0.7 || chosen.has(c.m.name) || claimed.has(c.t.name)) continue;
    chosen.set(c.m.name, c.t);
    claimed.add(c.t.name);
  }

  // Target tables keyed by a bigint (or a uuid) where the model's key is a uuid or text (text): references to them are such ids too.
  const tableOf: TableOf = (x) => chosen.get(x)?.name;
  const keyedTables = new Map<string, TargetIdForm>();
  for (const [name, t] of chosen) {
    const m = model.tables.find((x) => x.name === name)!;
    const columns = matchColumns(m, t, tableOf);
    for (const c of m.columns) {
      const form = columns.has(c.name) ? keyForm(c, t.columns.find((x) => x.name === columns.get(c.name))!) : undefined;
      if (form) keyedTables.set(t.name, form);
    }
  }
  for (const m of model.tables) {
    const t = chosen.get(m.name);
    if (!t) continue;
    const matched = matchColumns(m, t, tableOf, keyedTables);
    const place = compositeKeyPlaceOf(m, t, matched);
    const columns = withKeyPlace(m, t, matched);
    const renamed: Record<string, string | null> = {};
    const retyped: string[] = [];
    const computed: string[] = [];
    const notAmounts: string[] = [];
    for (const c of m.columns) {
      let to = columns.get(c.name);
      // A text model column whose namesake the API sends as a JSON string all the same (TypeCell's
      // `data bytea`, a date) is that column: kept by its name, the type named for the user to confirm.
      const namesake = to === undefined ? t.columns.find((x) => x.name === c.name) : undefined;
      if (namesake && normalType(c.type) === 'text' && travelsAsString(namesake.type)) {
        retyped.push(`${c.name} (${namesake.type} here)`);
        continue;
      }
      // A value the model writes that the target computes (`total generated always as (subtotal + fee)`):
      // neither side can write it, and the two computations need not agree, so it is left out.
      if (to !== undefined && !c.generated && t.columns.find((x) => x.name === to)?.serverFilled === 'generated') {
        computed.push(`${t.name}.${to}`);
        to = undefined;
      }
      // A numeric namesake of a model integer that is no amount (a score, a count): its fractions are not the model's.
      if (to === undefined && normalType(c.type) === 'integer' && normalType(t.columns.find((x) => x.name === c.name)?.type ?? '') === 'numeric') notAmounts.push(c.name);
      if (to !== c.name) renamed[c.name] = to ?? null;
    }
    if (place) {
      notes.push(
        `confirm: ${t.name} is keyed by ${t.columns.filter((c) => c.keyPart).map((c) => c.name).join(', ')} where the model keys ${m.name} by ${place.key}: ${place.key} → ${place.column} (fixtures write the model's id there; a request naming a row by ${place.key} names it by ${place.column}, unique in a case)` +
          (place.instead ? `; ${place.instead} takes no model column (the id matched it by type alone)` : ''),
      );
    }
    const natural = naturalKeyOf(m, t, columns);
    if (natural) {
      renamed[natural.key] = natural.column;
      renamed[natural.natural] = null;
      notes.push(
        `confirm: ${t.name} is keyed by ${natural.column}, its natural key, where the model keys ${m.name} by ${natural.key} beside ${natural.natural}: ${natural.key} → ${natural.column} (references to it follow), ${natural.natural} mapped to null (one value there for the two)`,
      );
    }
    if (notAmounts.length) notes.push(`confirm: ${t.name} ${notAmounts.join(', ')} numeric here where the model counts in integers (no amount of money): mapped to null (not written, not compared); map by hand if it holds whole numbers only`);
    if (retyped.length) notes.push(`confirm: ${t.name} columns the model types as text, kept by their name: ${retyped.join(', ')}`);
    if (computed.length) notes.push(computedNote(t, computed));
    const ids: Partial<Record<(typeof ID_LISTS)[TargetIdForm], string[]>> = {};
    for (const c of m.columns) {
      const to = t.columns.find((x) => x.name === columns.get(c.name));
      const form = to && (keyForm(c, to) ?? (place?.key === c.name ? idFormOf(c, to) : undefined) ?? refForm(c, to, keyedTables));
      if (form) (ids[ID_LISTS[form]] ??= []).push(c.name);
    }
    const identity = m.name === 'users' ? authIdentityColumnOf(t) : undefined;
    const arrayOfOne = m.columns.filter((c) => columns.has(c.name) && wordInArray(c, t.columns.find((x) => x.name === columns.get(c.name))!)).map((c) => c.name);
    if (t.name === m.name && !Object.keys(renamed).length && !Object.keys(ids).length && !identity && !arrayOfOne.length) continue;
    mapping.tables![m.name] = { ...(t.name !== m.name ? { name: t.name } : {}), ...(Object.keys(renamed).length ? { columns: renamed } : {}), ...ids, ...(arrayOfOne.length ? { arrayOfOne } : {}), ...(identity ? { authIdentity: identity } : {}) };
    if (arrayOfOne.length) notes.push(`confirm: ${t.name} keeps ${arrayOfOne.map((c) => `${c} (${columns.get(c)})`).join(', ')} as an array where the model holds one value: arrayOfOne (written as an array of that value, a null as an empty one)`);
    if (ids.bigintIds) notes.push(`confirm: ${t.name} keeps ${ids.bigintIds.join(', ')} as bigint ids where the model's are uuids or text: bigintIds`);
    if (ids.uuidIds) notes.push(`confirm: ${t.name} keeps ${ids.uuidIds.join(', ')} as uuids where the model's are text ids: uuidIds`);
    if (identity) {
      notes.push(`confirm: ${t.name} is keyed by its own ${t.columns.find((c) => c.primaryKey)!.name} and links a person to auth.users by ${identity}: tables.${m.name}.authIdentity = "${identity}" (fixtures write the caller's auth id there)`);
    }
    const absent = Object.entries(renamed).filter(([k, v]) => v === null && k !== natural?.natural).map(([k]) => k);
    notes.push(
      `confirm: model table ${m.name} is ${t.name}` +
        (Object.keys(renamed).length ? `; columns ${Object.entries(renamed).filter(([, v]) => v).map(([k, v]) => `${k} → ${v}`).join(', ') || 'as named'}` : '') +
        (absent.length ? `; not found (null: the target has none): ${absent.join(', ')}` : ''),
    );
  }

  // Functions: the model's name when the target has it, else the best unclaimed one of the same
  // arity and kind, reading the model's name in the target's words (pr_ticket → press_request).
  const tableRenames: Renames = new Map();
  for (const [m, t] of chosen) if (m !== t.name) learn(tableRenames, m, t.name, true);
  const targetFns = new Map(target.functions.map((f) => [f.name, f]));
  const fnClaimed = new Set(model.functions.map((f) => f.name).filter((n) => targetFns.has(n)));
  for (const m of model.functions) {
    if (targetFns.has(m.name)) continue;
    const best = target.functions
      .filter((f) => !fnClaimed.has(f.name))
      .map((f) => ({ f, score: functionScore(m, f, tableRenames) }))
      .sort((a, b) => b.score - a.score)[0];
    if (!best || best.score < 0.35) continue;
    fnClaimed.add(best.f.name);
    const f = best.f;
    const args = Object.fromEntries(m.args.map((a, i) => [a, f.args[i].name]).filter(([a, b]) => a !== b));
    const entry: NonNullable<TargetMapping['functions']>[string] = { name: f.name, ...(Object.keys(args).length ? { args } : {}) };
    const what: string[] = [];
    if (!READ_VERB.test(m.name) && f.returns === 'composite') {
      entry.returns = 'row-as-boolean';
      what.push('it returns a row where the model answers a boolean: row-as-boolean');
    }
    // A jsonb answer built with a key set to true (`jsonb_build_object('removed', true, …)`): that key is the answer.
    const jsonField = jsonAnswerField(m, f);
    if (jsonField) {
      entry.returns = { field: jsonField };
      what.push(`it answers a jsonb object whose "${jsonField}" is the model's answer: returns { field: "${jsonField}" }`);
    }
    // Output columns named as the returned table's mapped columns are the model's columns.
    const source = outputSource(f, chosen);
    if (source && entry.returns !== 'row-as-boolean') {
      const tableMap = mapping.tables?.[source[0]]?.columns ?? {};
      const reverse = new Map(Object.entries(tableMap).filter(([, v]) => v).map(([k, v]) => [v as string, k]));
      const outs = Object.fromEntries(f.outColumns.filter((c) => reverse.has(c)).map((c) => [reverse.get(c)!, c]));
      if (Object.keys(outs).length) {
        entry.columns = outs;
        what.push(`output columns as ${source[1].name}'s`);
      }
    }
    mapping.functions![m.name] = entry;
    notes.push(`confirm: model function ${m.name}(${m.args.join(', ')}) is ${f.name}(${f.args.map((a) => a.name).join(', ')})${what.length ? `; ${what.join('; ')}` : ''}`);
  }

  // A function of the model's name whose parameters are named otherwise (p_source for p_duplicate):
  // matched by their words (p_primary_id holds p_primary's), else by position, as a caller passing
  // them positionally would (parameter-pairing.ts). A name both have is the same
  // parameter whatever its place (PostgREST passes them by name: (p_primary, p_duplicate) is no swap).
  // Parameters the target adds with a DEFAULT are left out of the call, as a caller would.
  unreachableFunctionNotes(model.functions, targetFns, notes);
  for (const m of model.functions) {
    const f = targetFns.get(m.name);
    if (!f || !parameterCountsFit(m.args, f.args) || mapping.functions?.[m.name] || !callableThroughRest(f.args)) continue;
    const args = pairParameters(m.args, f.args.map((a) => a.name));
    if (!Object.keys(args).length || !leftOutAreOptional(m.args, args, f.args)) continue;
    mapping.functions![m.name] = { args };
    notes.push(`confirm: ${f.name}'s parameters by their words, else by position: ${Object.entries(args).map(([a, b]) => `${a} → ${b}`).join(', ')}`);
  }

  // A function the model answers nothing from (RETURNS void) that returns a value here (a text, a
  // jsonb, a row: stranger-app-5's `returns jsonb` answering the moved ticket): only its success
  // is the model's answer.
  // And the converse (stranger-app-6's soft_delete_* `returns void` where the model answers a boolean): likewise.
  for (const m of model.functions) {
    const f = targetFns.get(mapping.functions?.[m.name]?.name ?? m.name);
    if (!f || (m.answersVoid === true) === (f.returns === 'void') || !parameterCountsFit(m.args, f.args) || mapping.functions?.[m.name]?.returns) continue;
    mapping.functions![m.name] = { ...mapping.functions![m.name], returns: 'value-as-void' };
    const shape = m.answersVoid ? `returns a value where the model's ${m.name} answers nothing` : `returns nothing (void) where the model's ${m.name} answers a value`;
    notes.push(`confirm: ${f.name} ${shape}: functions.${m.name}.returns = "value-as-void" (only its success is compared)`);
  }

  // A function of the model's name returning a table's rows (`setof vs_tickets`, or columns named
  // as its): its output columns are that table's, renamed as the table's (report → body).
  for (const m of model.functions) {
    const f = targetFns.get(m.name);
    const source = f && f.returns !== 'void' ? outputSource(f, chosen) : undefined;
    if (!f || !source || mapping.functions?.[m.name]?.columns) continue;
    const reverse = new Map(Object.entries(mapping.tables?.[source[0]]?.columns ?? {}).filter(([, v]) => v).map(([k, v]) => [v as string, k]));
    const outs = Object.fromEntries(f.outColumns.filter((c) => reverse.has(c)).map((c) => [reverse.get(c)!, c]));
    if (!Object.keys(outs).length) continue;
    mapping.functions![m.name] = { ...mapping.functions![m.name], columns: outs };
    notes.push(`confirm: ${f.name}'s output columns as ${source[1].name}'s: ${Object.entries(outs).map(([a, b]) => `${a} → ${b}`).join(', ')}`);
  }

  // A function of the model's name answering a jsonb object with a key set to true where the model answers a boolean (soft_delete_*'s `{id, deleted: true}`).
  for (const m of model.functions) {
    const f = targetFns.get(m.name);
    const field = f && !mapping.functions?.[m.name]?.returns ? jsonAnswerField(m, f) : undefined;
    if (!field) continue;
    mapping.functions![m.name] = { ...mapping.functions?.[m.name], returns: { field } };
    notes.push(`confirm: ${f!.name} answers a jsonb object whose "${field}" is the model's answer: functions.${m.name}.returns = { field: "${field}" }`);
  }

  // A jsonb answer keyed by a mapped table's columns in the target's own names (an ORM-first schema's
  // `json_build_object('targetDept', t."targetDept")`): the model's columns, renamed as the table's.
  for (const m of model.functions) {
    const f = targetFns.get(mapping.functions?.[m.name]?.name ?? m.name);
    const entry = mapping.functions?.[m.name];
    if (!f || f.returns !== 'scalar' || m.answersVoid || m.answerRows || entry?.columns || entry?.returns) continue;
    const found = jsonAnswerColumns(f, chosen, mapping);
    if (!found) continue;
    mapping.functions![m.name] = { ...entry, columns: found.columns };
    notes.push(`confirm: ${f.name}'s jsonb answer keyed as ${found.table}'s columns: ${Object.entries(found.columns).map(([a, b]) => `${a} → ${b}`).join(', ')}`);
  }

  // Ids of tables keyed in another form that functions take and answer (p_id bigint, a returned
  // row's id, a jsonb answer's nested ids): sent and expected as the tables' bigintIds / uuidIds are.
  // None such (every key the model's own type): an integer parameter is a count or an amount, no id.
  const formsUsed = new Set(keyedTables.values());
  const namesTable = (f: TargetFunctionFacts, t: TargetTableFacts) =>
    [t.name, ...(t.viewOf ? [t.viewOf] : [])].some((name) => {
      const escaped = escapeRegExp(name);
      return new RegExp(`\\b${name.includes('.') ? escaped : `(public\\.)?${escaped}`}\\b`, 'i').test(withoutComments(f.source));
    });
  for (const m of formsUsed.size ? model.functions : []) {
    const f = targetFns.get(mapping.functions?.[m.name]?.name ?? m.name);
    if (!f || !parameterCountsFit(m.args, f.args)) continue;
    const source = outputSource(f, chosen);
    // Each model parameter's own on the target: by the name the mapping pairs it with (a defaulted parameter the call leaves out has none).
    const paired = mapping.functions?.[m.name]?.args ?? {};
    const targetArgOf = (a: string) => f.args.find((x) => x.name === (paired[a] ?? a)) ?? (f.args.length === m.args.length ? f.args[m.args.indexOf(a)] : undefined);
    for (const form of formsUsed) {
      const list = ID_LISTS[form];
      const idColumns = (modelTable: string) => mapping.tables?.[modelTable]?.[list] ?? [];
      // An integer parameter is an id wherever bigint keys are; a uuid one only of a function that
      // reads a table keyed so (every other uuid is the model's own, and stays itself anyway).
      const idArg = (type: string) =>
        form === 'bigint' ? normalType(type) === 'integer' : normalType(type) === 'uuid' && [...chosen].some(([mt, t]) => idColumns(mt).length && namesTable(f, t));
      const ids = new Set(m.args.filter((a) => { const t = targetArgOf(a); return t !== undefined && idArg(t.type); }));
      if (source) {
        const renamed = mapping.functions?.[m.name]?.columns ?? {};
        const reverse = new Map(Object.entries(renamed).map(([k, v]) => [v, k]));
        for (const id of idColumns(source[0])) {
          const targetColumn = mapping.tables?.[source[0]]?.columns?.[id] ?? id;
          if (f.outColumns.includes(targetColumn)) ids.add(reverse.get(targetColumn) ?? targetColumn);
        }
      } else if ((f.returns === 'scalar' || f.returns === 'composite') && /json/i.test(f.source)) {
        // A jsonb answer built from such tables carries their ids under the columns' names, also
        // in the jsonb fields of a composite (`returns org_chart` as (nodes jsonb, members jsonb)).
        // A table whose rows it answers the caller under a key (tableRows, below) has its ids read by that table's mapping: not the function's, at every depth.
        const asTableRows = m.answerRows && answersCallerAlone(f, targetFns) ? jsonAnswerRows(f.source).filter((c) => m.answerRows![c.key]).map((c) => c.table) : [];
        for (const [modelTable, t] of chosen) if (namesTable(f, t) && !asTableRows.some((table) => isRelationNamed(t, table))) for (const id of idColumns(modelTable)) ids.add(id);
      } else if (f.returns === 'scalar') {
        // A scalar answer that is a key (`select r.id from public.student_records r …`: my_person_id
        // returning an integer): the answer, `value`, is an id in that table's form.
        const picked = scalarKeyPicked(f.source);
        const [modelTable, t] = (picked && [...chosen].find(([, x]) => x.name === picked.table)) || [];
        const key = t?.columns.find((c) => c.primaryKey);
        if (modelTable && key?.name === picked!.column && idColumns(modelTable).some((id) => (mapping.tables?.[modelTable]?.columns?.[id] ?? id) === key.name)) ids.add('value');
      }
      if (!ids.size) continue;
      mapping.functions![m.name] = { ...mapping.functions![m.name], [list]: [...ids] };
      notes.push(`confirm: ${f.name} takes or answers ${[...ids].join(', ')} as ${form === 'bigint' ? 'bigint ids' : 'uuids'}: functions.${m.name}.${list}`);
    }
  }

  // Rows a jsonb answer carries under a key (`'record', (select to_jsonb(r) from student_records r …)`)
  // of a function answering the caller alone (no parameter, reads the caller): their columns beyond
  // the model's are the caller's own, not another person's data (that stays a finding).
  for (const m of model.functions) {
    const f = targetFns.get(mapping.functions?.[m.name]?.name ?? m.name);
    if (!f || !m.answerRows || !answersCallerAlone(f, targetFns)) continue;
    const tableRows: Record<string, string> = {};
    const extra = new Set<string>();
    for (const carried of jsonAnswerRows(f.source)) {
      const columns = m.answerRows[carried.key];
      const [modelTable, t] = [...chosen].find(([, x]) => isRelationNamed(x, carried.table)) ?? [];
      if (!columns || !modelTable || !t) continue;
      const renamed = mapping.tables?.[modelTable]?.columns ?? {};
      const asModel = new Map(Object.entries(renamed).filter(([, v]) => v).map(([k, v]) => [v as string, k]));
      const own = new Set(t.columns.map((c) => c.name));
      tableRows[carried.key] = modelTable;
      for (const c of carried.columns ?? [...own]) if (own.has(c) && !columns.includes(asModel.get(c) ?? c)) extra.add(c);
    }
    if (!Object.keys(tableRows).length) continue;
    const entry = (mapping.functions![m.name] = { ...mapping.functions![m.name], tableRows: { ...mapping.functions![m.name]?.tableRows, ...tableRows } });
    if (extra.size) entry.extraColumns = [...new Set([...(entry.extraColumns ?? []), ...extra])];
    notes.push(
      `confirm: ${f.name} answers the caller's own rows under ${Object.entries(tableRows).map(([k, t]) => `${k} (${t})`).join(', ')}: functions.${m.name}.tableRows` +
        (extra.size ? `; they also carry ${[...extra].join(', ')}, the caller's own columns the model's answer does not name: functions.${m.name}.extraColumns (remove any the spec keeps from the caller)` : ''),
    );
  }

  // Owner columns a BEFORE INSERT trigger fills from auth.uid() (`new.submitter_id := auth.uid()`):
  // a signed-in caller's row is theirs whatever the body says (callerFilled).
  for (const f of target.functions) {
    const assigned = [...f.source.matchAll(CALLER_ASSIGNED)].map((x) => x[1].toLowerCase());
    for (const table of assigned.length ? (f.beforeInsertOn ?? []) : []) {
      const modelTable = [...chosen].find(([, t]) => t.name === table)?.[0];
      if (!modelTable) continue;
      const reverse = new Map(Object.entries(mapping.tables?.[modelTable]?.columns ?? {}).filter(([, v]) => v).map(([k, v]) => [v as string, k]));
      const m = model.tables.find((x) => x.name === modelTable)!;
      const columns = assigned.map((c) => reverse.get(c) ?? c).filter((c) => m.columns.some((x) => x.name === c));
      if (!columns.length) continue;
      const entry = (mapping.tables![modelTable] ??= {});
      entry.callerFilled = [...new Set([...(entry.callerFilled ?? []), ...columns])];
      notes.push(`confirm: ${f.name} (before insert on ${table}) sets ${columns.join(', ')} to auth.uid() for a signed-in caller: tables.${modelTable}.callerFilled`);
    }
  }

  // Conventions: how the target's functions and guards refuse, read as the model's P0001 — only
  // where the model has functions or guards (a pack with neither met Capgo's 42501s as noise).
  const { functionRefusal, guardRefusal } = refusalConventions(model, target);
  if (functionRefusal) {
    mapping.conventions!.functionRefusal = functionRefusal;
    notes.push(`confirm: functions refuse with ${functionRefusal.code} (messages matching ${functionRefusal.message}) where the model raises P0001`);
  }
  if (guardRefusal) {
    mapping.conventions!.guardRefusal = guardRefusal;
    notes.push(`confirm: guards (triggers) refuse with ${guardRefusal.code} (messages matching ${guardRefusal.message}) where the model raises P0001`);
  }
  // Supabase's default privileges cover tables in public only: another schema's tables (passport)
  // hold what the project granted them, whichever convention the project follows.
  const mapped = [...chosen.values()].filter((t) => !t.name.includes('.'));
  const grantsNote = supabaseDefaultGrantsNote(mapped, target.defaultPrivilegesKept === true);
  if (grantsNote) {
    mapping.conventions!.grants = 'supabase-default';
    notes.push(grantsNote);
    revokedAnonGrants(chosen, notes);
  }

  // Column-level UPDATE and INSERT grants (`grant update (first_name, …) on profiles to authenticated`):
  // the model's role holds those columns only, so a PATCH or a body naming another is refused by the grant on both sides.
  for (const [key, privilege] of [['columnUpdate', 'UPDATE'], ['columnInsert', 'INSERT']] as const) {
    for (const [name, t] of chosen) {
      const byColumns = t.grants?.[key];
      if (!byColumns) continue;
      const m = model.tables.find((x) => x.name === name)!;
      for (const role of ['anon', 'authenticated'] as const) {
        const columns = grantedModelColumns(mapping, name, m, byColumns[role]);
        if (!columns) continue;
        // by key, not setPath: a table name may hold a dot (passport.profiles)
        const grants = (((settings.tableGrants ??= {}) as Record<string, Record<string, unknown>>)[name] ??= {});
        grants[role] = t.grants![role];
        ((grants[key] ??= {}) as Record<string, string[]>)[role] = columns;
        notes.push(`confirm: model.tableGrants.${name}: ${role} may ${privilege} ${columns.length ? columns.join(', ') : 'none of the model\'s columns'} only (column grants on ${t.name}), and holds ${t.grants![role].join(', ') || 'nothing'} on the table`);
      }
    }
  }

  columnSelectGrants(chosen, model.tables, mapping, notes);
  projectRoleGrants(chosen, settings, notes);

  // Vocabularies from the target's own CHECKs and defaults.
  for (const v of vocabularies) {
    const [table, column] = v.column.split(/\.(?=[^.]+$)/);
    const t = chosen.get(table);
    const mappedColumn = mapping.tables?.[table]?.columns?.[column] ?? column;
    const c = t?.columns.find((x) => x.name === mappedColumn);
    const open = v.open && openVocabulary([v.column, ...(v.open.alsoColumns ?? [])], chosen, mapping);
    if (v.open && open) {
      setPath(settings, v.open.path, v.open.value);
      notes.push(`confirm: model.${v.open.path}: ${v.open.value} (${open.join(', ')} hold no list of their values: no CHECK list, enum or foreign key)`);
    }
    const words = c && vocabularyHeld(c, mapping.tables?.[table]?.arrayOfOne?.includes(column) ?? false);
    if (!c || !words) continue;
    if (v.path) {
      setPath(settings, v.path, words);
      const initial = v.initialPath && words === c.vocabulary ? literalDefault(c.defaultExpr) : undefined;
      if (v.initialPath && initial) setPath(settings, v.initialPath, initial);
      notes.push(`model.${v.path} from ${t!.name}.${c.name}'s CHECK: ${words.join(', ')}${initial ? ` (model.${v.initialPath}: ${initial}, its default)` : ''}`);
    }
    const unknown = (v.generatedByName ?? []).filter((x) => !words.includes(x));
    if (!unknown.length) continue;
    // With a setting holding the target's words, the model draws each of them too: none is spare to pair.
    const pairing = v.path ? undefined : wordPairing(unknown, words, v.generatedByName ?? []);
    if (pairing) {
      const entry = (mapping.tables![table] ??= {});
      entry.values = { ...entry.values, [column]: pairing };
      notes.push(
        `confirm: the rules generate ${unknown.join(', ')} in ${table}.${column} by name, which ${t!.name}.${c.name} (CHECK or enum) does not allow: each paired with a word of its own there, ` +
          `mapping.tables.${table}.values.${column} = ${JSON.stringify(pairing)} (written and read back so; pair them by meaning if the words have one)`,
      );
    } else {
      notes.push(
        `to do: the rules also generate ${unknown.join(', ')} in ${table}.${column} by name, which ${t!.name}.${c.name} does not allow: map each to its own target value in mapping.tables.${table}.values.${column}${v.path ? ` and keep the model's word in model.${v.path}` : ''}`,
      );
    }
  }

  if (!Object.keys(mapping.tables!).length) delete mapping.tables;
  if (!Object.keys(mapping.functions!).length) delete mapping.functions;
  if (!Object.keys(mapping.conventions!).length) delete mapping.conventions;
  return { mapping, settings, notes };
}
