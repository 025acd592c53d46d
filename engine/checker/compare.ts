/**
 * Does the database agree with the model? Success answers agree on the rows (as a multiset,
 * server-assigned columns present but not compared) and on the number of rows touched;
 * rejections on who rejected (grant or row rule); errors on their SQLSTATE, and a modelled refusal
 * also on its text (the pattern of its reason). "Some error" never
 * counts as a denial: a predicted 42501 answered by any other error is a disagreement.
 */
import type { Json, Row } from '../model/json.ts';
import { couldBeSorted, type OrderTerm } from '../model/embed.ts';
import type { Outcome, Refusal } from '../model/outcome.ts';
import { canonicalJson, canonicalObjectJson } from '../model/values.ts';
import type { Oracle } from '../pack.ts';
import { targetName, type ApiRequest } from '../model/request.ts';
import type { World } from '../model/world.ts';
import { grantsOf, type TableModel } from '../model/table-model.ts';
import type { SettingHints } from './history-entry.ts';

export interface Disagreement {
  reason: string;
}

const SERVER_ASSIGNED_JSON = canonicalJson('<server-assigned>');

/**
 * `masked` names a row's server-assigned columns (never compared) and its embeds: `remarks.` marks
 * the key `remarks` as an embedded resource, compared whatever the order of its rows (PostgREST
 * promises none), `remarks.created_at` masks a column inside it, and `remarks.@order=created_at`
 * (embedOrderMask) says the embed was read in that order: its rows must also come in the model's
 * sequence of those columns' values (rows tied on them in any order), or, where it orders by text
 * under a collation not known to be C, in a sequence some collation gives (embed.ts couldBeSorted).
 */
function normalizeRow(r: Row, masked: readonly string[]): string {
  return canonicalObjectJson(r, (v, k) => (masked.includes(k) ? SERVER_ASSIGNED_JSON : masked.includes(`${k}.`) ? canonicalJson(normalizeEmbed(v, embedMasks(masked, k))) : canonicalJson(masked.includes(timestampMask(k)) ? timestampForm(v) : v)));
}

const TIMESTAMP_MARK = '@timestamp:';

/** Marks `column` as a timestamp: compared in one written form (timestampForm); any other text column exactly. */
export function timestampMask(column: string): string {
  return `${TIMESTAMP_MARK}${column}`;
}

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * A timestamp in one written form: Postgres reads `2025-01-01 00:00:00` and `2025-01-01T00:00:00`
 * (and `Z`, `+00`, `+00:00`; `.500` and `.5`) as the same value, and PostgREST answers it in its
 * own form (`2025-01-01T00:00:00`, `…+00:00` for timestamptz), so a world row written either way
 * agrees with the answer. A value without a zone and one with a zone stay different.
 */
function timestampForm(v: Json): Json {
  if (typeof v !== 'string') return v;
  const m = TIMESTAMP.exec(v);
  if (!m) return v;
  const [, date, time, fraction, zone] = m;
  const frac = fraction?.replace(/0+$/, '');
  const z = zone === undefined ? '' : zone === 'Z' ? '+00:00' : zone.length === 3 ? `${zone}:00` : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  return `${date}T${time.length === 5 ? `${time}:00` : time}${frac ? `.${frac}` : ''}${z}`;
}

function normalizeRows(rows: Row[], masked: readonly string[]): string[] {
  return rows.map((r) => normalizeRow(r, masked)).sort();
}

function embedMasks(masked: readonly string[], embed: string): string[] {
  return masked.filter((m) => m.startsWith(`${embed}.`) && m.length > embed.length + 1).map((m) => m.slice(embed.length + 1));
}

const ORDER_MASK = '@order=';
const COLLATED_ORDER_MASK = '@order-by-unknown-collation=';
/** An ordered embed's sequence where the text of its order is under a collation not known: any order some collation gives. */
const SOME_COLLATION_ORDER = ['<an order some collation gives>'];

/**
 * The mask saying an embed's rows come in the order of `columns` (request.ts Embed.order); with
 * `collationUnknown` (its text columns, on a target whose collation is not known to be C), in
 * an order of `order` some collation gives.
 */
export function embedOrderMask(embed: string, columns: readonly string[], collationUnknown?: { order: readonly OrderTerm[]; columns: readonly string[] }): string {
  return `${embed}.${orderMask(columns, collationUnknown)}`;
}

/** The same for a read's top-level `order=`: its rows, not an embed's, come in that order. */
export function orderMask(columns: readonly string[], collationUnknown?: { order: readonly OrderTerm[]; columns: readonly string[] }): string {
  if (collationUnknown?.columns.length) return `${COLLATED_ORDER_MASK}${JSON.stringify(collationUnknown)}`;
  return `${ORDER_MASK}${columns.join(',')}`;
}

/** An ordered embed's rows as the sequence of their order columns' values (those not masked: a server-assigned value is not the model's). */
function orderSequence(rows: Json[], masked: readonly string[]): string[] | undefined {
  const collated = masked.find((m) => m.startsWith(COLLATED_ORDER_MASK));
  if (collated) {
    const { order, columns } = JSON.parse(collated.slice(COLLATED_ORDER_MASK.length)) as { order: OrderTerm[]; columns: string[] };
    // Each side against its own values: the model's sort is one a collation (C) gives.
    if (rows.every(isRow) && couldBeSorted(rows, order, columns)) return SOME_COLLATION_ORDER;
    const named = order.map((t) => t.column);
    return rows.map((r) => canonicalJson(isRow(r) ? named.map((c) => r[c] ?? null) : r));
  }
  const mark = masked.find((m) => m.startsWith(ORDER_MASK));
  if (!mark) return undefined;
  const columns = mark.slice(ORDER_MASK.length).split(',').filter((c) => !masked.includes(c));
  return rows.map((r) => canonicalJson(isRow(r) ? columns.map((c) => r[c] ?? null) : r));
}

function isRow(v: Json): v is Row {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function normalizeEmbed(v: Json, masked: readonly string[]): Json {
  const order = Array.isArray(v) ? orderSequence(v, masked) : undefined;
  if (Array.isArray(v) && order) return { rows: v.every(isRow) ? normalizeRows(v, masked) : v, order };
  if (Array.isArray(v)) return v.every(isRow) ? normalizeRows(v, masked) : v;
  return isRow(v) ? normalizeRow(v, masked) : v;
}

/**
 * Under db-max-rows without an order (`upTo`), PostgREST answers any `upTo` of the rows of each
 * level (the top level and every embedded array: Plan.hs treeRestrictRange limits each node):
 * `actual` agrees when it holds min(|expected|, upTo) rows, each fitting a distinct expected row.
 * An ordered embed's are its first `upTo` in order: their order values are the model's first ones.
 */
function fitsUpTo(expected: Json[], actual: Json[], masked: readonly string[], upTo: number): boolean {
  if (actual.length !== Math.min(expected.length, upTo)) return false;
  const order = orderSequence(expected, masked);
  const actualOrder = orderSequence(actual, masked);
  // Which rows come first under a collation not known is not known either: any that fit, in an order some collation gives.
  if (order === SOME_COLLATION_ORDER ? actualOrder !== SOME_COLLATION_ORDER : order && canonicalJson(order.slice(0, actual.length)) !== canonicalJson(actualOrder!)) return false;
  const unused = [...expected];
  for (const a of actual) {
    const i = unused.findIndex((e) => rowFits(e, a, masked, upTo));
    if (i < 0) return false;
    unused.splice(i, 1);
  }
  return true;
}

function rowFits(e: Json, a: Json, masked: readonly string[], upTo: number): boolean {
  if (!isRow(e) || !isRow(a)) return canonicalJson(e) === canonicalJson(a);
  const keys = [...new Set([...Object.keys(e), ...Object.keys(a)])];
  return keys.every((k) => {
    if (!(k in e) || !(k in a)) return false;
    if (masked.includes(k)) return true;
    const [ev, av] = [e[k], a[k]];
    if (masked.includes(`${k}.`) && Array.isArray(ev) && Array.isArray(av)) return fitsUpTo(ev, av, embedMasks(masked, k), upTo);
    if (masked.includes(`${k}.`)) return canonicalJson(normalizeEmbed(ev, embedMasks(masked, k))) === canonicalJson(normalizeEmbed(av, embedMasks(masked, k)));
    if (masked.includes(timestampMask(k))) return canonicalJson(timestampForm(ev)) === canonicalJson(timestampForm(av));
    return canonicalJson(ev) === canonicalJson(av);
  });
}

function success(o: Outcome): o is Extract<Outcome, { kind: 'allowed' | 'filtered' }> {
  return o.kind === 'allowed' || o.kind === 'filtered';
}

/** Rows of a success answer mapped by `as` (FunctionModel.comparedAs); other answers unchanged. */
function comparedRows(o: Outcome, as: ((rows: Row[]) => Row[]) | undefined): Outcome {
  if (!as) return o;
  const own = success(o) && o.rows ? ({ ...o, rows: as(o.rows) } as Outcome) : o;
  // An alternative holding rows (another tenant's public rows: second-tenant.ts) is compared as the rows it stands beside.
  return own.orElse ? ({ ...own, orElse: own.orElse.map((a) => comparedRows(a, as)) } as Outcome) : own;
}

export type { SettingHints } from './history-entry.ts';

/** The columns of two row sets whose values differ (as multisets), each with the setting that decides it. */
function valueSettings(expected: Row[], actual: Row[], values: Record<string, string> | undefined): string {
  if (!values) return '';
  const column = (rows: Row[], c: string) => rows.map((r) => canonicalJson(r[c] ?? null)).sort().join('\u0000');
  const named = Object.entries(values).filter(([c]) => column(expected, c) !== column(actual, c));
  return named.length ? ` (${named.map(([c, setting]) => `${c}: setting ${setting}`).join('; ')})` : '';
}

export function compareOutcomes(expected: Outcome, actual: Outcome, masked: readonly string[] = [], as?: (rows: Row[]) => Row[], hints: SettingHints = {}): Disagreement | undefined {
  if (as) return compareOutcomes(comparedRows(expected, as), comparedRows(actual, as), masked, undefined, hints);
  const first = compareOne(expected, actual, masked, hints);
  if (!first || !('orElse' in expected) || !expected.orElse) return first;
  // Any of the failures a multi-row write may stop at is an agreement (and any an alternative allows in turn).
  return expected.orElse.some((alternative) => !compareOutcomes(alternative, actual, masked, undefined, hints)) ? undefined : first;
}

const columnsOf = (rows: Row[]) => [...new Set(rows.flatMap((r) => Object.keys(r)))].sort();

/** The error text must match the pattern of the refusal's reason (named by its setting, or by the spec). */
function compareRefusalText(refusal: Refusal, actual: Extract<Outcome, { kind: 'raised' | 'error' }>): Disagreement | undefined {
  const text = actual.kind === 'raised' ? (actual.message ?? '') : (actual.detail ?? '');
  if (new RegExp(refusal.pattern).test(text)) return undefined;
  const from = refusal.setting ? `setting ${refusal.setting}` : (refusal.source ?? 'the model');
  return { reason: `error text ${JSON.stringify(text)} does not match /${refusal.pattern}/, the "${refusal.reason}" refusal (${from})` };
}

function compareOne(expected: Outcome, actual: Outcome, masked: readonly string[], hints: SettingHints): Disagreement | undefined {
  if (success(expected) && success(actual)) {
    // A different count of rows may be a setting's choice of which rows (find_similar_vs_tickets' similarDuplicates): named as for differing rows.
    if (expected.affected !== actual.affected) return { reason: `rows touched: model ${expected.affected}, database ${actual.affected}${expected.rows && actual.rows ? valueSettings(expected.rows, actual.rows, hints.values) : ''}${hints.rows ? ` (which rows a caller reaches: setting ${hints.rows})` : ''}` };
    if ((expected.rows === null) !== (actual.rows === null)) {
      // A function that answers nothing by design (void) where the model answers a value, or the other way round.
      return { reason: `one side returned rows, the other none${hints.returns ? ` (if the function's answer differs by design: ${hints.returns} = "value-as-void")` : ''}` };
    }
    if (expected.rows && actual.rows && expected.kind === 'allowed' && expected.upTo !== undefined) {
      if (!fitsUpTo(expected.rows, actual.rows, masked, expected.upTo)) return { reason: `returned rows are not ${expected.upTo} (db-max-rows) of the ${expected.rows.length} rows the model expects` };
    } else if (expected.rows && actual.rows) {
      const e = normalizeRows(expected.rows, masked);
      const a = normalizeRows(actual.rows, masked);
      // A top-level order= (orderMask): the same rows, and in the model's order of its columns' values.
      const [eOrder, aOrder] = [orderSequence(expected.rows, masked), orderSequence(actual.rows, masked)];
      if (e.length === a.length && e.every((row, i) => row === a[i]) && eOrder && canonicalJson(eOrder) !== canonicalJson(aOrder ?? null)) return { reason: `returned rows are not in the order= the model expects` };
      if (e.length !== a.length || e.some((row, i) => row !== a[i])) {
        const [ec, ac] = [columnsOf(expected.rows), columnsOf(actual.rows)];
        if (expected.rows.length && actual.rows.length && ec.join() !== ac.join()) {
          // A function's extra output column may be the target's own (a timestamp) or a leak: the user says which.
          const extra = hints.columns && ac.some((c) => !ec.includes(c)) ? `; or, if the spec allows them, mapping.functions.${hints.columns.replace(/^functionColumns\./, '')}.extraColumns` : '';
          return { reason: `returned columns differ: database (${ac.join(', ')}), model (${ec.join(', ')})${hints.columns ? ` (setting ${hints.columns}${extra})` : ''}` };
        }
        return { reason: `returned rows differ${valueSettings(expected.rows, actual.rows, hints.values)}` };
      }
    }
    return undefined;
  }
  if (expected.kind === 'rejected' && actual.kind === 'rejected') {
    return expected.by === actual.by ? undefined : { reason: `42501 from the ${actual.by}, model expected it from the ${expected.by}` };
  }
  if ((expected.kind === 'raised' || expected.kind === 'error') && (actual.kind === 'raised' || actual.kind === 'error')) {
    if (expected.code !== actual.code) {
      const setting = expected.kind === 'raised' && expected.refusal?.codeSetting ? ` (the "${expected.refusal.reason}" refusal; setting ${expected.refusal.codeSetting})` : '';
      return { reason: `error ${actual.code}, model expected ${expected.code}${setting}` };
    }
    return expected.kind === 'raised' && expected.refusal ? compareRefusalText(expected.refusal, actual) : undefined;
  }
  const describe = (o: Outcome) => (success(o) ? 'success' : o.kind === 'rejected' ? `42501 (${o.by})` : `error ${o.code}`);
  const byGrant = [expected, actual].some((o) => o.kind === 'rejected' && o.by === 'grant');
  const answeredOrRaised = [expected, actual].some(success) && [expected, actual].some((o) => o.kind === 'raised' || o.kind === 'error');
  const byPolicy = [expected, actual].some((o) => o.kind === 'rejected' && o.by === 'policy') && [expected, actual].some(success);
  // Refused by the grant where the model reads: a role granted some columns only refuses `select=*` (granted-columns.ts).
  const columnsOnly = actual.kind === 'rejected' && actual.by === 'grant' && success(expected) && hints.columnSelect ? `; a role granted SELECT on some columns only: ${hints.columnSelect}` : '';
  const setting = byGrant && hints.grants ? ` (table grants: setting ${hints.grants}${columnsOnly})` : answeredOrRaised && hints.outcome ? ` (answer or refuse: setting ${hints.outcome})` : byPolicy && hints.rows ? ` (which rows a caller reaches: setting ${hints.rows})` : '';
  return { reason: `database answered ${describe(actual)}, model expected ${describe(expected)}${setting}` };
}

/** The settings behind a step's answer: its table's grants, its function's output columns. */
export function settingHintsFor(oracle: Oracle, request: ApiRequest): SettingHints {
  // Per oracle and table or function: the same for every step sent to it.
  let byTarget = settingHints.get(oracle);
  if (!byTarget) settingHints.set(oracle, (byTarget = new Map()));
  const key = `${request.kind === 'rpc' ? 'rpc' : 'table'} ${targetName(request)}`;
  let hints = byTarget.get(key);
  if (!hints) byTarget.set(key, (hints = settingHintsOf(oracle, request)));
  return hints;
}

const settingHints = new WeakMap<Oracle, Map<string, SettingHints>>();

function settingHintsOf(oracle: Oracle, request: ApiRequest): SettingHints {
  const claims = claimsHint(oracle);
  if (request.kind === 'rpc') {
    const f = oracle.model.functions[targetName(request)];
    return { returns: `mapping.functions.${targetName(request)}.returns`, ...(f?.columnsSetting ? { columns: f.columnsSetting } : {}), ...(f?.outcomeSetting ? { outcome: f.outcomeSetting } : {}), ...(f?.valueSettings ? { values: f.valueSettings } : {}), ...(f?.rowsSetting ? { rows: settingWithValue(oracle, f.rowsSetting) } : {}), ...claims };
  }
  const t = oracle.model.tables[targetName(request)];
  return { ...(t?.grantsSetting ? { grants: t.grantsSetting, ...columnSelectHint(t, t.grantsSetting, oracle.settings) } : {}), ...(t?.valueSettings ? { values: t.valueSettings } : {}), ...(t?.rowsSetting ? { rows: settingWithValue(oracle, t.rowsSetting) } : {}), ...claims };
}

/** `<grants>.columnSelect` to name, where the model grants no API role some columns of the table only. */
function columnSelectHint(table: TableModel, grantsSetting: string, settings: unknown): Pick<SettingHints, 'columnSelect'> {
  const set = Object.values(grantsOf(table, settings).columnSelect ?? {}).some((columns) => (columns?.length ?? 0) > 0);
  return set ? {} : { columnSelect: `${grantsSetting}.columnSelect` };
}

/** Per oracle (a run's settings never change): its claims hint, worked out once, not on every step. */
const claimsHints = new WeakMap<Oracle, Pick<SettingHints, 'claims'>>();

/** `claims.appMetadataRole = "untrusted"`: the pack's claims setting with its value in these settings. */
function claimsHint(oracle: Oracle): Pick<SettingHints, 'claims'> {
  let hint = claimsHints.get(oracle);
  if (!hint) claimsHints.set(oracle, (hint = claimsHintOf(oracle)));
  return hint;
}

function claimsHintOf(oracle: Oracle): Pick<SettingHints, 'claims'> {
  const path = oracle.model.claimsSetting;
  return path ? { claims: settingWithValue(oracle, path) } : {};
}

/** `path = value`: a setting named with its value in this run's settings. */
function settingWithValue(oracle: Oracle, path: string): string {
  const value = path.split('.').reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), oracle.settings);
  return `${path} = ${JSON.stringify(value)}`;
}

/** How a step's answer is compared: its function's comparedAs, bound to the world before the step. */
export function comparedAsFor(oracle: Oracle, request: ApiRequest, world: World): ComparedAs | undefined {
  const model = request.kind === 'rpc' ? oracle.model.functions[targetName(request)] : oracle.model.tables[targetName(request)];
  const as = model?.comparedAs;
  if (!as) return undefined;
  const bound = (rows: Row[]) => as(rows, world, oracle.settings);
  const reading = model.comparedAsReading;
  return reading ? Object.assign(bound, { reading: reading.name, strictly: (rows: Row[]) => reading.strictly(rows, world, oracle.settings) }) : bound;
}

/** A step's comparison, with the secure reading it holds, if any (FunctionModel.comparedAsReading), and itself without it. */
export type ComparedAs = ((rows: Row[]) => Row[]) & { reading?: string; strictly?: (rows: Row[]) => Row[] };
