/**
 * One case end to end: write the fixtures, send each request as PostgREST would, predict it
 * with the model, judge it, roll everything back. Returns the case's history (one entry per step
 * sent) and the first disagreement, if any. checkStep is one step of it (predict, send, judge).
 */
import type { Outcome } from '../model/outcome.ts';
import { outcomeClass } from '../model/outcome.ts';
import type { Prediction } from '../model/predict.ts';
import type { Oracle } from '../pack.ts';
import { column, serverAssignedColumns, targetDrawnColumns, type TableModel } from '../model/table-model.ts';
import { embedKey, type OrderTerm } from '../model/embed.ts';
import { embeddedTableOf } from '../model/engine.ts';
import type { Json, Row } from '../model/json.ts';
import { compareOutcomes, comparedAsFor, type ComparedAs, embedOrderMask, orderMask, settingHintsFor, timestampMask } from '../checker/compare.ts';
import { ENGINE_CHECKERS, judgeStep, modelAgreement, type HistoryEntry } from '../checker/history.ts';
import { observedOutcome } from '../checker/observe.ts';
import { tenantSettingNote } from '../target/tenant-world.ts';
import { holdsSecondTenant, secondTenantCase } from '../target/second-tenant.ts';
import { fixtureStatements, fixtureStatementsPerRow, requestForTarget, sentAsSql, targetColumnShape, unrealizableAnswer, worldAsStored, callersWithTokensFromWorld, callersAsIssued, unrealizableEnumWrite, unrealizableIdentityWrite, unrealizableOnTarget, unrealizableWrite, type FixturePlan, type FixtureStatement } from '../target/fixtures.ts';
import { UnfillableColumn } from '../target/fill-row.ts';
import { NotRealizable } from '../target/realizable.ts';
import { modelKeysOnTarget } from '../target/key-the-model-lacks.ts';
import { catalogFacts } from '../target/catalog-facts.ts';
import type { Executor } from '../executor/executor.ts';
import type { ApiResponse } from '../executor/response.ts';
import type { ApiRequest } from '../model/request.ts';
import { isAppendedStep, modelRunOf, withModelRun, type DataCase, type DataStep } from './data-case.ts';
import { predictStep, predictSteps } from './case-predictions.ts';
import type { World } from '../model/world.ts';
import { describeCaller } from '../model/caller.ts';
import { describeRequest, targetName } from '../model/request.ts';
import { accessCell, accessKey } from '../model/access.ts';
import { expectedOnTarget, leniencyOf, outcomeToModel, rowOfNullsAsNoRow } from '../mapping/mapping.ts';
import { DIFFERS_IN_SEEDED, differOnlyInSeeded, maskSeeded, stringsIn } from '../introspection/seeded-values.ts';
import { isSideError } from '../findings/signature.ts';

export interface StepMismatch {
  step: number;
  request: DataStep;
  reason: string;
  expected: Outcome;
  actual: Outcome;
  response: ApiResponse;
  /** Columns the server assigns: in the answer, not compared (the diff leaves them out too). */
  masked: string[];
  /** A pack invariant that rejected the step (absent: the model and the target disagree). */
  checker?: string;
  /** The step went to a table or function the mapping sends as SQL (`via: "sql"`): its signature says so. */
  sentAs?: 'sql';
}

export type { HistoryEntry } from '../checker/history.ts';

export interface CaseVerdict {
  mismatch?: StepMismatch;
  /** The case was cut before this step, one a role sweep appended that the target cannot hold (CaseCut): the steps before it were judged. */
  cut?: CaseCut;
  /**
   * Every step sent, in order: the checkers judged it, coverage (outcome classes, access cells,
   * clause tallies) is read off it, and a repro reuses its predictions.
   */
  history: HistoryEntry[];
}

/** A type whose values sort without a collation: its order is the model's whatever the target's collation. */
const UNCOLLATED_TYPE = /^(smallint|integer|bigint|numeric|decimal|real|double precision|boolean|uuid|date|time|timestamp|interval|bytea|money|inet|cidr|macaddr|oid)\b/;

/**
 * The order's text columns: sorted by the target's collation, which only C makes the model's code
 * point order. Decided by the column's type on the target when it was read from its catalog (a
 * model integer may be text there); else by the model's. A type not known to sort without a
 * collation (text, a domain, an enum) counts as collated: its order is compared leniently.
 */
function collatedColumns(plan: FixturePlan | undefined, table: string, model: TableModel | undefined, order: readonly OrderTerm[]): string[] {
  return order
    .map((t) => t.column)
    .filter((c) => {
      const onTarget = plan && targetColumnShape(plan, table, c);
      if (onTarget) return !UNCOLLATED_TYPE.test(onTarget.type);
      return !model || /^(text|character|varchar|citext|name)\b/.test(column(model, c)?.type ?? 'text');
    });
}

/** A table's own marks: its server-assigned columns (never compared) and its timestamps (`timestamptz`, or a pack's `timestamp…`: compared in one written form). Kept per model. */
function tableMasks(model: TableModel, settings: unknown): readonly string[] {
  let bySettings = tableMasksOf.get(model);
  if (!bySettings) tableMasksOf.set(model, (bySettings = new WeakMap()));
  const key = (settings ?? model) as object;
  let masks = bySettings.get(key);
  // A column the target draws (targetDraws): a row a request inserts holds the target's own value.
  if (!masks) bySettings.set(key, (masks = [...serverAssignedColumns(model), ...targetDrawnColumns(model, settings).map((c) => c.name), ...model.columns.filter((c) => (c.type as string).startsWith('timestamp')).map((c) => timestampMask(c.name))]));
  return masks;
}

const tableMasksOf = new WeakMap<TableModel, WeakMap<object, readonly string[]>>();

/** Columns the server assigns (ids, timestamps): present in answers but never compared. `plan`: the target's (its column types). */
export function maskedColumns(oracle: Oracle, step: DataStep, plan?: FixturePlan): string[] {
  if (step.request.kind === 'rpc') {
    const name = targetName(step.request);
    return oracle.model.functions[name]?.serverAssigned ?? [];
  }
  const name = targetName(step.request);
  const model = oracle.model.tables[name];
  // Without embeds or an order=, the table's own (kept per model): no copy per step.
  if (step.request.kind !== 'select' || (!step.request.embeds?.length && !step.request.order?.length)) return model ? (tableMasks(model, oracle.settings) as string[]) : [];
  // An embed (`remarks.`: compared as a multiset, and in its order when it has one) and its own server-assigned columns (compare.ts).
  const embeds = step.request.kind === 'select' ? (step.request.embeds ?? []) : [];
  const embedded = embeds.flatMap((e) => {
    const tableName = embeddedTableOf(oracle.model.tables, name, e) ?? e.table;
    const [key, table] = [embedKey(e), oracle.model.tables[tableName]];
    return [
      `${key}.`,
      ...(e.order?.length ? [embedOrderMask(key, e.order.map((t) => t.column), { order: e.order, columns: oracle.codePointText ? [] : collatedColumns(plan, tableName, table, e.order) })] : []),
      ...(table ? tableMasks(table, oracle.settings) : []).map((c) => `${key}.${c}`),
    ];
  });
  // A top-level order= (compare.ts orderMask): the rows in that order.
  const order = step.request.kind === 'select' ? step.request.order : undefined;
  const ordered = order?.length ? [orderMask(order.map((t) => t.column), { order, columns: oracle.codePointText ? [] : collatedColumns(plan, name, model, order) })] : [];
  return [...(model ? tableMasks(model, oracle.settings) : []), ...embedded, ...ordered];
}

const columnNames = new WeakMap<TableModel, ReadonlySet<string>>();

function modelColumnNames(model: TableModel): ReadonlySet<string> {
  let names = columnNames.get(model);
  if (!names) columnNames.set(model, (names = new Set(model.columns.map((c) => c.name))));
  return names;
}

/**
 * A project's own tables carry columns the model does not know (audit fields, extra NOT NULL
 * columns); their values in `*` answers are the project's business, not a rule's. Only for a
 * foreign target: on the reference database every column is the model's and compared.
 */
function withoutForeignColumns(oracle: Oracle, step: DataStep, outcome: Outcome): Outcome {
  if (step.request.kind === 'rpc' || (outcome.kind !== 'allowed' && outcome.kind !== 'filtered') || !outcome.rows) return outcome;
  const name = targetName(step.request);
  const model = oracle.model.tables[name];
  if (!model) return outcome;
  const embedsAsked = step.request.kind === 'select' && (step.request.embeds?.length ?? 0) > 0;
  // Rows holding only the model's columns (the reference, or a project's read of them) are kept as they are.
  if (!embedsAsked && outcome.rows.every((r) => Object.keys(r).every((k) => modelColumnNames(model).has(k)))) return outcome;
  const modelColumns = (m: TableModel) => (r: Row) => Object.fromEntries(Object.entries(r).filter(([k]) => m.columns.some((c) => c.name === k)));
  // An embed's key stays, its rows (or row) in its own table's model columns.
  const embeds = new Map(
    (step.request.kind === 'select' ? (step.request.embeds ?? []) : []).flatMap((e) => {
      const table = oracle.model.tables[embeddedTableOf(oracle.model.tables, name, e) ?? e.table];
      return table ? [[embedKey(e), modelColumns(table)] as const] : [];
    }),
  );
  const embedded = (k: string, v: Json): Json => {
    const keep = embeds.get(k)!;
    return Array.isArray(v) ? v.map((x) => (x !== null && typeof x === 'object' && !Array.isArray(x) ? keep(x) : x)) : v !== null && typeof v === 'object' ? keep(v) : v;
  };
  const own = modelColumns(model);
  const rows = outcome.rows.map((r) => ({ ...own(r), ...Object.fromEntries(Object.entries(r).filter(([k]) => embeds.has(k)).map(([k, v]) => [k, embedded(k, v)])) }));
  return { ...outcome, rows } as Outcome;
}

/** A disagreement's message: the step and reason, then who sent what (a step sent as SQL says so). */
export function mismatchMessage(mismatch: StepMismatch): string {
  return `step ${mismatch.step + 1}: ${mismatch.reason}\n  ${describeCaller(mismatch.request.caller)} ${describeRequest(mismatch.request.request, mismatch.sentAs)}`;
}

export class CaseMismatch extends Error {
  /** `history`: the case's steps up to the disagreeing one, when the thrower has them. */
  constructor(
    readonly mismatch: StepMismatch,
    readonly history?: HistoryEntry[],
  ) {
    super(mismatchMessage(mismatch));
    this.name = 'CaseMismatch';
  }
}

/** A step checked: its history entry, and the disagreement as shown (seeded values masked) when a checker rejected it. */
export interface StepCheck {
  entry: HistoryEntry;
  mismatch?: StepMismatch;
}

/** A step made ready before its case opened: the request as sent (planned in begin()) and the model's answer. */
export interface PreparedStep {
  sent: ApiRequest;
  prediction: Prediction;
}

/**
 * One step (number `index` of its case): predict from `world`, send, record it in a history entry,
 * judge the entry (the model's agreement, then the pack's invariants, given the `earlier` entries).
 * `prepared`: its request and prediction when already made (from the same world).
 */
export async function checkStep(tx: Executor, world: World, step: DataStep, index: number, oracle: Oracle, prepared?: PreparedStep, earlier: readonly HistoryEntry[] = []): Promise<StepCheck> {
  const prediction = prepared?.prediction ?? predictStep(oracle, world, step);
  // Predicted here (a model run's step): a write the target cannot judge as the model does drops the case.
  const unrealizable = prepared ? undefined : unrealizableStep(tx.fixturePlan, oracle, world, step, prediction);
  if (unrealizable) throw new NotRealizable(unrealizable);
  const sent = prepared?.sent ?? requestForTarget(tx.fixturePlan, step.request);
  // A project's mapping: the request goes out in the target's names, the answer comes back in the model's.
  const mapping = tx.fixturePlan.mapping;
  const response = await tx.send(step.caller, sent);
  const unheld = unrealizableAnswer(tx.fixturePlan, response, prediction.outcome, oracle.model.fixtureOrder, sent, modelKeysOnTarget(mapping, oracle.model.tables));
  if (unheld) throw new NotRealizable(unheld);
  const observed = mapping ? outcomeToModel(mapping, step.request, observedOutcome(sent, response)) : observedOutcome(sent, response);
  const actual = tx.fixturePlan.shapes ? withoutForeignColumns(oracle, step, observed) : observed;
  // What PostgREST shows for every target, mapped or not: a one-composite function's NULL as an object of nulls.
  const expected = rowOfNullsAsNoRow(step.request, mapping ? expectedOnTarget(mapping, step.caller, step.request, prediction.outcome, catalogFacts(tx.fixturePlan)) : prediction.outcome, response.nullComposite, actual);
  const outcome = outcomeClass(prediction.outcome);
  const cell = accessKey(accessCell(step.caller, step.request, prediction.outcome));
  const masked = maskedColumns(oracle, step, tx.fixturePlan);
  const entry: HistoryEntry = {
    step: index,
    caller: step.caller,
    request: step.request,
    prediction,
    predicted: expected,
    response,
    observed: actual,
    masked,
    comparedAs: comparedAsFor(oracle, step.request, world),
    hints: settingHintsFor(oracle, step.request),
    ...(tx.cache?.userMetadataRead ? { readsUserMetadata: true } : {}),
    outcomeClass: outcome,
    cell,
  };
  // The model's agreement first, then nothing left on the connection, then the pack's own invariants.
  const disagreement = judgeStep([...ENGINE_CHECKERS, ...(oracle.model.invariants ?? [])], entry, earlier);
  if (!disagreement) {
    // The model's agreement just passed: the comparison it made is not made again.
    const by = acceptedBy(entry, true);
    const agreed = by ? Object.assign(entry, by) : entry;
    // A refusal the model accepts in place of its success (a guard refusing an exemption the spec
    // does not require): the target changed nothing, so the model's world goes on unchanged too.
    const refusedInstead = (prediction.outcome.kind === 'allowed' || prediction.outcome.kind === 'filtered') && (actual.kind === 'raised' || actual.kind === 'rejected' || actual.kind === 'error');
    return { entry: refusedInstead ? { ...agreed, prediction: { ...prediction, world } } : agreed };
  }
  // The secure readings the model also accepted here, named: the failure says which answers beside its own it took as secure.
  const near = (disagreement.checker === modelAgreement.name ? readingsNear(expected) : '') + tenantSettingNote(tx.fixturePlan.shapes, tx.fixturePlan.tenantColumn, holdsSecondTenant(world));
  Object.assign(entry, { disagreement: disagreement.reason + near, checker: disagreement.checker });
  // What the failure carries is printed, reported and saved: seeded rows' values are masked (the case's own are shown).
  const hide = <T>(v: T) => maskSeeded(v, tx.fixturePlan.seededValues, stringsIn([world, step]));
  const seededOnly = differOnlyInSeeded(expected, actual, hide) ? DIFFERS_IN_SEEDED : '';
  const mismatch: StepMismatch = { step: index, request: step, reason: hide(disagreement.reason + near) + seededOnly, expected: hide(expected), actual: hide(actual), response: hide(response), masked, ...(disagreement.checker !== modelAgreement.name ? { checker: disagreement.checker } : {}), ...(sentAsSql(tx.fixturePlan, step.request) ? { sentAs: 'sql' as const } : {}) };
  return { entry, mismatch };
}

/**
 * What an agreeing step was accepted by, when only a named alternative matched it: an answer the
 * target's shape justified (mapping.ts leniencyOf), or a secure reading (Outcome.reading), at any
 * depth of the expectation's alternatives. Undefined: the model's other answers matched as well.
 * `agreed`: the step is known to agree with its whole expectation as compared (the model's
 * agreement passed), so that comparison is not made again.
 */
export function acceptedBy(entry: Pick<HistoryEntry, 'predicted' | 'observed' | 'masked' | 'comparedAs' | 'hints'>, agreed = false): { leniency: string } | { reading: string } | undefined {
  const agrees = (o: Outcome) => !compareOutcomes(o, entry.observed, entry.masked, entry.comparedAs, entry.hints);
  const named = namedAlternatives(entry.predicted);
  if (!named.length || agrees(withoutNamed(entry.predicted))) return comparedOnlyByReading(entry, agreed);
  const by = named.find(agrees);
  if (!by) return undefined;
  const leniency = leniencyOf(by);
  return leniency !== undefined ? { leniency } : { reading: by.reading! };
}

/** The comparison's secure reading (compare.ts ComparedAs), when the step agrees by it and not without it. */
function comparedOnlyByReading(entry: Pick<HistoryEntry, 'predicted' | 'observed' | 'masked' | 'comparedAs' | 'hints'>, agreed: boolean): { reading: string } | undefined {
  const as = entry.comparedAs as ComparedAs | undefined;
  if (!as?.reading || !as.strictly) return undefined;
  const agreesBy = (c: ComparedAs | ((rows: Row[]) => Row[])) => !compareOutcomes(entry.predicted, entry.observed, entry.masked, c, entry.hints);
  return (agreed || agreesBy(as)) && !agreesBy(as.strictly) ? { reading: as.reading } : undefined;
}

/** The secure readings an expectation accepts besides the model's own answer, as a failure names them ('' for none). */
export function readingsNear(expected: Outcome): string {
  const names = [...new Set(namedAlternatives(expected).flatMap((o) => (o.reading ? [o.reading] : [])))];
  return names.length ? ` (also accepted as secure, and not met either: ${names.join(', ')})` : '';
}

const isNamed = (o: Outcome) => leniencyOf(o) !== undefined || o.reading !== undefined;

/** The named alternatives of an expectation, its alternatives' own included (a multi-row write's). */
function namedAlternatives(o: Outcome): Outcome[] {
  return (o.orElse ?? []).flatMap((a) => (isNamed(a) ? [a] : namedAlternatives(a)));
}

/** An expectation without its named alternatives, at any depth: what the model accepts by its rules alone. */
function withoutNamed(o: Outcome): Outcome {
  return o.orElse ? ({ ...o, orElse: o.orElse.filter((a) => !isNamed(a)).map(withoutNamed) } as Outcome) : o;
}

/** Why a case cannot exist on this target, and the step that cannot (absent: its world cannot). */
interface Unrealizable {
  reason: string;
  step?: number;
}

/**
 * Why a case cannot exist on this target (engine/target/realizable.ts): its world, or a world the
 * model predicts after one of its steps (a write the model allows into a state the target refuses).
 */
function unrealizableCase(plan: FixturePlan, oracle: Oracle, testCase: DataCase, predicted?: ({ prediction: Prediction } | { thrown: unknown })[]): Unrealizable | undefined {
  let world = testCase.world;
  const first = unrealizableOnTarget(plan, world, oracle.model.fixtureOrder);
  if (first || !predicted) return first === undefined ? undefined : { reason: first };
  for (const [i, made] of predicted.entries()) {
    if (!('prediction' in made)) break;
    const reason = unrealizableStep(plan, oracle, world, testCase.steps[i], made.prediction);
    if (reason) return { reason, step: i };
    world = made.prediction.world;
  }
  return undefined;
}

/**
 * Where a case is cut rather than dropped: before a step a role sweep appended (data-case.ts
 * isAppendedStep) that the target cannot hold, `reason` saying why. The case's own steps, and
 * the appended ones before it, are judged; the rest are not sent or not judged. Decided by the
 * case and the target alone: the same seed cuts the same cases at the same steps.
 */
export interface CaseCut {
  step: number;
  reason: string;
}

/** The cut for an unrealizable step (undefined: the case is dropped whole, its world or its own step being what cannot exist). */
function cutBefore(testCase: DataCase, unrealizable: Unrealizable): CaseCut | undefined {
  const { step, reason } = unrealizable;
  return step !== undefined && step > 0 && isAppendedStep(testCase.steps[step]) ? { step, reason } : undefined;
}

/** The case's steps before its cut: what was judged, as saved and tallied. */
export function caseBeforeCut(testCase: DataCase, cut: CaseCut | undefined): DataCase {
  return cut ? { ...testCase, steps: testCase.steps.slice(0, cut.step) } : testCase;
}

/** A step the target cannot judge as the model does: a write it expects to break a constraint (unrealizableWrite), or one into a state the target cannot hold. */
function unrealizableStep(plan: FixturePlan, oracle: Oracle, before: World, step: DataStep, prediction: Prediction): string | undefined {
  if (!plan.shapes) return undefined;
  const nullable = (table: string, column: string) => oracle.model.tables[table]?.columns.find((c) => c.name === column)?.nullable !== false;
  return unrealizableIdentityWrite(plan, step.request) ?? unrealizableWrite(plan, step.request, prediction.outcome, nullable) ?? unrealizableEnumWrite(plan, step.request, prediction.outcome) ?? (prediction.world === before ? undefined : unrealizablePrediction(plan, oracle, prediction.world, before));
}

/**
 * A world the model predicts: its server-assigned columns still null (a row the step inserted) are
 * the target's to write. A value the world already holds (a fixture row's identity key, which
 * other rows reference) stays: without it, every child row's foreign key looked orphaned.
 * `before`: the world before the step, already found to hold on the target.
 */
function unrealizablePrediction(plan: FixturePlan, oracle: Oracle, world: World, before: World): string | undefined {
  if (!plan.shapes) return undefined;
  const written: World = {};
  for (const [table, rows] of Object.entries(world)) {
    const model = oracle.model.tables[table];
    const assigned = model ? serverAssignedColumns(model) : [];
    const unassigned = (r: Row) => assigned.some((k) => k in r && (r[k] === null || r[k] === undefined));
    // Rows with nothing to leave out are checked as they are, not copied.
    written[table] = assigned.length && rows.some(unassigned) ? rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k, v]) => !assigned.includes(k) || (v !== null && v !== undefined)))) : rows;
  }
  // The tables the step left as they were (the same arrays) held before it: not gone through again.
  return unrealizableOnTarget(plan, written, oracle.model.fixtureOrder, before);
}

const sameStep = (a: DataStep, b: DataStep | undefined) => b !== undefined && JSON.stringify(a) === JSON.stringify(b);

/**
 * What a case needs before it touches the database, all pure: its fixture statements, its
 * requests as sent to this target, and the model's answer to each known step. Made ahead, while
 * the previous case of the lane is still in the database (run-data-property.ts).
 */
export interface PreparedCase {
  testCase: DataCase;
  /** Thrown while preparing (NotRealizable: a case the target cannot hold): thrown when the case runs. */
  thrown?: unknown;
  /** Cut while preparing (CaseCut): `testCase` is the case before the cut, and its verdict says so. */
  cut?: CaseCut;
  fixtures: FixtureStatement[];
  sent: ApiRequest[];
  /** Every request known before the case opens (not a model run, nothing thrown): it can be written whole, behind the case before it. */
  planned: boolean;
  /** Absent: predicted by checkCase while the case's batch is on its way. */
  predicted?: ({ prediction: Prediction } | { thrown: unknown })[];
}

/** The case with its world as the target holds it (constant column defaults filled: fixtures.ts worldAsStored) and its callers' tokens as Supabase Auth issues them (fixtures.ts callersAsIssued), its model run kept. */
function caseAsStored(plan: FixturePlan, oracle: Oracle, given: DataCase): DataCase {
  // On a multi-tenant target, with a copy of its world in a second tenant and its steps' twins naming the copy (second-tenant.ts).
  const testCase = secondTenantCase(plan, oracle, given);
  const world = worldAsStored(plan, testCase.world, oracle.model.tables, oracle.settings, callersWithTokensFromWorld(oracle, testCase.steps));
  const steps = callersAsIssued(testCase.world, testCase.steps);
  if (world === testCase.world && steps === testCase.steps) return testCase;
  const run = modelRunOf(testCase);
  return run ? withModelRun({ ...testCase, world, steps }, run) : { ...testCase, world, steps };
}

/** `predict`: also the model's answers (ahead of time); without, checkCase makes them while the batch travels. */
export function prepareCase(plan: FixturePlan, given: DataCase, oracle: Oracle, predict = true): PreparedCase {
  const testCase = caseAsStored(plan, oracle, given);
  const modelRun = modelRunOf(testCase);
  // Steps known in advance go out with the fixtures; a model run's steps come one at a time.
  const sent = modelRun ? [] : testCase.steps.map((s) => requestForTarget(plan, s.request));
  // A prediction that throws throws when its step is checked, as it would have unplanned.
  const predicted = !predict ? undefined : modelRun ? [] : predictSteps(oracle, testCase);
  try {
    const unrealizable = unrealizableCase(plan, oracle, testCase, predicted);
    const cut = unrealizable && cutBefore(testCase, unrealizable);
    if (unrealizable && !cut) return { testCase, thrown: new NotRealizable(unrealizable.reason), fixtures: [], sent, planned: false, predicted };
    if (cut) return { testCase: caseBeforeCut(testCase, cut), cut, fixtures: fixtureStatements(testCase.world, oracle.model.fixtureOrder, plan), sent: sent.slice(0, cut.step), planned: !modelRun, predicted: predicted?.slice(0, cut.step) };
    return { testCase, fixtures: fixtureStatements(testCase.world, oracle.model.fixtureOrder, plan), sent, planned: !modelRun, predicted };
  } catch (e) {
    // A row the filler cannot complete for this schema: the case cannot exist here either.
    const thrown = e instanceof UnfillableColumn ? new NotRealizable(e.message) : e;
    return { testCase, thrown, fixtures: [], sent, planned: false, predicted };
  }
}

/**
 * `onStep`: told of every step checked (a behaviour diff records what each side answered).
 * `prepared`: made by prepareCase for this case and this executor's plan.
 * `onReleased`: asked for by a search that overlaps cases (run-data-property.ts). A case whose
 * requests are all known then has them all written at once (runPlanned), and calls it as soon
 * as they are, so the lane's next case can be written behind it; the answers are judged when
 * they come back (the database does the same work: a disagreement only decides what is
 * reported). Otherwise it is called once the case has ended.
 */
export async function checkCase(
  tx: Executor,
  testCase: DataCase,
  oracle: Oracle,
  onStep?: (check: StepCheck) => void,
  prepared?: PreparedCase,
  onReleased?: () => void,
): Promise<CaseVerdict> {
  testCase = prepared?.testCase ?? caseAsStored(tx.fixturePlan, oracle, testCase);
  const fixtureOrder = oracle.model.fixtureOrder;
  const history: HistoryEntry[] = [];
  const record = (checked: StepCheck) => {
    onStep?.(checked);
    history.push(checked.entry);
  };
  const plan = tx.fixturePlan;
  const made = prepared ?? prepareCase(plan, testCase, oracle, false);
  let cut = made.cut;
  const verdict = (mismatch?: StepMismatch): CaseVerdict => ({ history, ...(mismatch ? { mismatch } : {}), ...(cut ? { cut } : {}) });
  let world = testCase.world;
  /** A case found unholdable only once its model answers are made (not prepared ahead): cut before an appended step, or dropped. */
  const cutOrDrop = (unrealizable: Unrealizable | undefined) => {
    if (!unrealizable) return;
    cut = cutBefore(testCase, unrealizable);
    if (!cut) throw new NotRealizable(unrealizable.reason);
  };
  if (made.thrown !== undefined) {
    onReleased?.();
    throw made.thrown;
  }
  const { fixtures, sent } = made;
  const modelRun = modelRunOf(testCase);
  const ahead = sent.map((request, i) => ({ caller: testCase.steps[i].caller, request }));
  const perRow = () => fixtureStatementsPerRow(world, fixtureOrder, plan);
  // Every step against the answers, in order: the model's agreement, then the pack's invariants.
  // A side error (both refused, other codes: signature.ts) does not end the judging: a later
  // step's disagreement of another kind is the case's (the exploit after a NOT NULL slip); with none, the side error is.
  const judgeAll = async (answering: Executor, predicted: ({ prediction: Prediction } | { thrown: unknown })[]) => {
    let side: StepMismatch | undefined;
    // A step refused in place of the model's success (checkStep: refusedInstead) left the world as
    // it was: the later steps' predictions, made ahead from the changed world, are made again.
    let replan = false;
    for (let i = 0; i < (cut?.step ?? testCase.steps.length); i++) {
      const made = predicted[i];
      if ('thrown' in made && !replan) {
        if (side) break;
        throw made.thrown;
      }
      let prediction: Prediction;
      try {
        prediction = replan || 'thrown' in made ? predictStep(oracle, world, testCase.steps[i]) : made.prediction;
      } catch (thrown) {
        // As a prediction made ahead that throws: a side error already seen stands (it is the case's finding).
        if (side) break;
        throw thrown;
      }
      let checked: StepCheck;
      try {
        checked = await checkStep(answering, world, testCase.steps[i], i, oracle, { sent: sent[i], prediction }, history);
      } catch (thrown) {
        // Its answer says the target cannot hold an appended step: the case ends before it, judged so far.
        if (!(thrown instanceof NotRealizable) || !isAppendedStep(testCase.steps[i])) throw thrown;
        cut = { step: i, reason: thrown.reason };
        break;
      }
      record(checked);
      if (checked.mismatch && !isSideError(checked.mismatch)) return verdict(checked.mismatch);
      if (checked.mismatch) side ??= checked.mismatch;
      if (checked.entry.prediction.world !== prediction.world) replan = true;
      // After a side error both sides refused: the model's world is unchanged, as the database's is.
      world = checked.entry.prediction.world;
    }
    if (side) history.splice(side.step + 1);
    return verdict(side);
  };
  if (onReleased && made.planned && tx.runPlanned) {
    let answering: Promise<ApiResponse[]>;
    try {
      answering = tx.runPlanned(fixtures, perRow, ahead);
    } finally {
      onReleased();
    }
    // Not made ahead: the model's answers while the messages are on their way (pure).
    const predicted = made.predicted ?? predictSteps(oracle, testCase);
    const answers = await answering;
    cutOrDrop(made.predicted ? undefined : unrealizableCase(plan, oracle, testCase, predicted));
    return judgeAll({ fixturePlan: plan, begin: async () => {}, end: async () => {}, send: async () => answers.shift()! }, predicted);
  }
  try {
    const opened = tx.begin(fixtures, perRow, ahead);
    // Not made ahead: the model's answers while the batch is on its way (pure).
    const predicted = made.predicted ?? (modelRun ? [] : predictSteps(oracle, testCase));
    await opened;
    cutOrDrop(made.predicted ? undefined : unrealizableCase(plan, oracle, testCase, predicted));
    if (modelRun) {
      // Generated by fc.commands: fast-check runs the commands, each sending its step here.
      let i = 0;
      try {
        await modelRun(async (step) => {
          if (!sameStep(step, testCase.steps[i])) throw new Error(`harness: the model run's step ${i + 1} is not the case's step ${i + 1}`);
          // The case's own step (the same as data): its answer, kept when the case was compiled, is reused.
          const checked = await checkStep(tx, world, testCase.steps[i], i, oracle, undefined, history);
          record(checked);
          if (checked.mismatch) throw new CaseMismatch(checked.mismatch);
          world = checked.entry.prediction.world;
          i++;
          return world;
        });
      } catch (e) {
        if (e instanceof CaseMismatch) return verdict(e.mismatch);
        throw e;
      }
      if (i !== testCase.steps.length) throw new Error(`harness: the model run sent ${i} of the case's ${testCase.steps.length} steps`);
      return verdict();
    }
    return await judgeAll(tx, predicted);
  } finally {
    await tx.end();
    onReleased?.();
  }
}
