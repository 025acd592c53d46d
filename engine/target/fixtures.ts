/**
 * A world's rows as the statements that write them, table by table in foreign-key order, as the
 * privileged server context: one statement per table (fast path) or per row (to name the row a
 * database refused). Values go through json_populate_recordset, the same reading of JSON that
 * requests get. For a schema policyfuzz did not write, a FixturePlan completes the rows
 * (introspected NOT NULL columns), upserts profile rows a trigger on auth.users already
 * created, and can switch triggers off for the fixture writes only.
 */
import type { Json, Row } from '../model/json.ts';
import type { World } from '../model/world.ts';
import { targetDrawnColumns, type DrawnColumnFacts } from '../model/table-model.ts';
import { fillInsertRows, fillWorldWithParents, UnfillableColumn, valueFor } from './fill-row.ts';
import { callerTenantRow, insertRowsInCallerTenant, tenantOf, worldInCallerTenant } from './tenant-world.ts';
import { holdsSecondTenant, joined, splitByTenant, worldOnTargetInTenants } from './second-tenant.ts';
import type { ColumnShape, TableShapes } from '../introspection/table-shapes.ts';
import { isJunctionKey } from '../model/embed.ts';
import { ident, inlineSql, literal, SqlParams, type ParameterizedSql } from '../executor/sql-text.ts';
import type { Caller } from '../model/caller.ts';
import { arrayOfOneToModel, idsInTextAsTarget, rowToModel, targetColumn, targetTable, UnmappableRequest, valueToTarget, type TargetMapping } from '../mapping/mapping.ts';
import { orderToTarget, requestToTarget, worldToTarget } from './names.ts';
import { CALLER_DEFAULT_LEFT_NULL, MAPPED_TO_NULL, outsideEnum, unrealizableReason } from './realizable.ts';
import { columnFormats, holdsText, idsInTargetFormat, keyFormat, type ColumnFormat } from './id-formats.ts';
import { danglingSetNullCleared } from './set-null-references.ts';
import { repeatedKeysLeftOut } from './repeated-keys.ts';
import type { ApiRequest } from '../model/request.ts';
import type { Outcome } from '../model/outcome.ts';
import type { ApiResponse } from '../executor/response.ts';
import type { CachedFunction } from '../executor/schema-cache.ts';
import { targetName, withSchemaOfDottedTable } from '../model/request.ts';
import { columnsAsRowsStatements, type ColumnsAsRows } from './columns-as-rows.ts';
import { authIdentityColumn } from './auth-identity.ts';
import { membershipRows } from './tenant-membership.ts';
import { duplicateOfKeyTheModelLacks, type ModelKeysOnTarget } from './key-the-model-lacks.ts';
import { standInRefusal } from '../db/supabase/stand-ins.ts';

export { qualifiedTable, type FixtureStatement } from './fixture-statement.ts';
import { qualifiedTable, type FixtureStatement } from './fixture-statement.ts';

export interface FixturePlan {
  shapes?: TableShapes;
  /** `auth-trigger`: a users row exists once auth.users is written; the fixture replaces it with the world's. */
  users: 'direct' | 'auth-trigger';
  /**
   * Guards that refuse even the server, switched off for the fixture writes only: `true` for
   * every trigger (session_replication_role = replica, which also skips foreign keys and the
   * auth trigger), or the named triggers (`table.trigger`, target names) one at a time, so
   * foreign keys and every other trigger still run.
   */
  bypassTriggers: boolean | readonly string[];
  /** Target tables emptied before each case's fixtures (seeded rows a case must not see). */
  emptyTables?: readonly string[];
  /** Target tables the migrations seeded (a singleton settings row, say): fixture rows update them by key. */
  seededTables?: readonly string[];
  /** Text values of those seeded rows: masked wherever a failure would print them (introspection/seeded-values.ts). */
  seededValues?: readonly string[];
  /** The target's names for the model's tables and columns (fixtures are written in them). */
  mapping?: TargetMapping;
  /**
   * The functions PostgREST's schema cache holds (the exposed schemas'), overloads included, by
   * `schema.fn`: their arguments and defaults, return types (catalog-facts.ts). Read with `shapes`.
   */
  functions?: ReadonlyMap<string, readonly CachedFunction[]>;
  /** Where row security, not the grant, decides a role's privilege (introspection/row-security-grants.ts keys). Read with `shapes`. */
  grantsUnderRowSecurity?: ReadonlySet<string>;
  /** Model columns the target keeps as rows of another table (a role in `user_roles`): columns-as-rows.ts. */
  columnsAsRows?: ColumnsAsRows;
  /** The tenant column (target name) of a multi-tenant target: a case's world lives in the caller's tenant (tenant-world.ts). */
  tenantColumn?: string;
}

export const REFERENCE_PLAN: FixturePlan = { users: 'direct', bypassTriggers: false };

/** An insert's text (its rows a marked parameter) by table, columns and conflict handling: the same few shapes come back case after case. */
const insertTexts = new Map<string, string>();
const INSERT_TEXTS_MAX = 1024;

/** A lookup row the fillers made (fill-row.ts lookupRows): one the migrations seeded with that key stays as it is. */
const NOTHING = Symbol('on conflict do nothing');

/** `upsertOn`: a row already there under that key is updated; NOTHING: kept. */
function insertRows(table: string, row: unknown, rows: Row[], upsertOn?: string | typeof NOTHING, identityAlways: readonly string[] = []): FixtureStatement {
  const target = qualifiedTable(table);
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k);
  const cols = [...seen];
  const key = JSON.stringify([target, upsertOn === NOTHING ? '\u0000nothing' : (upsertOn ?? null), identityAlways, cols]);
  let marked = insertTexts.get(key);
  const p = new SqlParams();
  const rowsParam = p.bind(JSON.stringify(rows));
  if (marked === undefined) {
    // A fixture row keeps the model's key even where the target generates it always.
    const overriding = cols.some((c) => identityAlways.includes(c)) ? ' overriding system value' : '';
    const upsert = upsertOn === NOTHING
      ? ' on conflict do nothing'
      : upsertOn
      ? ` on conflict (${ident(upsertOn)}) do update set ${cols.filter((c) => c !== upsertOn).map((c) => `${ident(c)} = excluded.${ident(c)}`).join(', ') || `${ident(upsertOn)} = excluded.${ident(upsertOn)}`}`
      : '';
    // A row left with no column (every model column mapped to null: a singleton settings row keyed
    // by a defaulted `singleton boolean`) is all defaults: no column list, a select of nothing.
    const columnList = cols.length ? ` (${cols.map(ident).join(', ')})` : '';
    marked = `insert into ${target}${columnList}${overriding} select ${cols.map((c) => `r.${ident(c)}`).join(', ')} from json_populate_recordset(null::${target}, ${rowsParam}::json) r${upsert}`;
    if (insertTexts.size >= INSERT_TEXTS_MAX) insertTexts.clear();
    insertTexts.set(key, marked);
  }
  return new InsertStatement(table, row, target, p.statement(marked));
}

/**
 * An insert's FixtureStatement: its text with values written in is made only when asked (a
 * repro, a refusal's message). A class, not an object literal with a getter: V8 gives each such
 * literal an accessor of its own (a slow object), which cost three quarters of planning a case's
 * fixtures.
 */
class InsertStatement implements FixtureStatement {
  constructor(
    readonly table: string,
    readonly row: unknown,
    readonly target: string,
    readonly query: ParameterizedSql,
  ) {}
  get sql(): string {
    return inlineSql(this.query);
  }
}

/**
 * A fixture row writes its own key into an identity or serial column, which leaves the column's
 * sequence behind: the next insert that lets the database number the row (the app's own, through
 * the API) would draw a key a fixture holds and fail 23505. Each such sequence is set past the
 * table's largest key (where the sequence reaches that far).
 */
function sequencesPastFixtures(table: string, rows: Row[], shapes: TableShapes | undefined): FixtureStatement[] {
  // Only a column that owns its sequence: a plain integer default (0) has none to move, and the statement costs a plan on every case.
  const numbered = shapeColumns(shapes, table).numbered.filter((c) => rows.some((r) => r[c.name] !== undefined && r[c.name] !== null));
  return numbered.map((c) => ({
    table,
    row: null,
    sql: `select setval(x.s, x.m + 1, false) from (select pg_get_serial_sequence(${literal(qualifiedTable(table))}, ${literal(c.name)}) s, (select max(${ident(c.name)}) from ${qualifiedTable(table)}) m) x where x.s is not null and x.m is not null and x.m < (select seqmax from pg_sequence where seqrelid = x.s::regclass)`,
  }));
}

/** Per catalog and table: what the fixtures read of its columns on every case, worked out once. */
interface ShapeColumns {
  /** Integer columns with a default (an identity or serial column's sequence may need moving past a fixture's key). */
  numbered: ColumnShape[];
  /** GENERATED ALWAYS identity columns. */
  identityAlways: string[];
}

const shapeColumnsCache = new WeakMap<TableShapes, Map<string, ShapeColumns>>();
const NO_SHAPE_COLUMNS: ShapeColumns = { numbered: [], identityAlways: [] };

function shapeColumns(shapes: TableShapes | undefined, table: string): ShapeColumns {
  if (!shapes) return NO_SHAPE_COLUMNS;
  let byTable = shapeColumnsCache.get(shapes);
  if (!byTable) shapeColumnsCache.set(shapes, (byTable = new Map()));
  let known = byTable.get(table);
  if (!known) {
    const columns = shapes.get(table) ?? [];
    known = { numbered: columns.filter((c) => c.ownsSequence && /^(smallint|integer|bigint)$/.test(c.type)), identityAlways: columns.filter((c) => c.identityAlways).map((c) => c.name) };
    byTable.set(table, known);
  }
  return known;
}

/**
 * The project's signup trigger made a users row for every identity: each is removed before the
 * world's own users rows go in, as plain inserts. A world without a users row for some identity
 * (a null role) then holds none for it; and a world's row never meets a trigger-made one still
 * holding a unique value it carries (the e-mail another identity signed up with: stranger-app-7's
 * `profiles_email_key`, where an upsert over the trigger's rows was refused).
 */
function removeTriggerMadeUsers(world: World, usersTable: string, idColumn: string): FixtureStatement {
  const identities = (world['auth.users'] ?? []).map((r) => String(r.id));
  return {
    table: usersTable,
    row: null,
    sql: `delete from ${qualifiedTable(usersTable)} where ${ident(idColumn)} = any(array[${identities.map(literal).join(', ')}]::uuid[])`,
  };
}

/** `table.trigger` (schema-qualified or not) as ALTER TABLE … DISABLE/ENABLE TRIGGER. */
function toggleTrigger(name: string, on: boolean): FixtureStatement {
  const dot = name.lastIndexOf('.');
  const table = name.slice(0, dot);
  const trigger = name.slice(dot + 1);
  return { table: '(settings)', row: null, sql: `alter table ${qualifiedTable(table)} ${on ? 'enable' : 'disable'} trigger ${ident(trigger)}` };
}

/**
 * Tables to empty, each after every listed table whose foreign key references it: a seeded parent
 * (a bot user) is deleted after the seeded rows that point at it, whatever order the config lists
 * them in (else its foreign key refuses the delete, 23503, and every case is dropped).
 */
function childrenFirst(tables: readonly string[], shapes: TableShapes | undefined): string[] {
  const left = [...tables];
  const ordered: string[] = [];
  const referencedByLeft = (t: string) => left.some((other) => other !== t && (shapes?.get(other) ?? []).some((c) => c.references?.table === t || c.referencesTogether?.includes(t)));
  while (left.length) {
    // A cycle of foreign keys keeps the config's order for what remains.
    const next = left.find((t) => !referencedByLeft(t)) ?? left[0];
    ordered.push(next);
    left.splice(left.indexOf(next), 1);
  }
  return ordered;
}

/**
 * The config's order with the parents the filler created (deepest first) each placed after the
 * tables it references itself (an `apps` parent after the world's `orgs`, which it names), else
 * first: always before the table that needed it, which comes later in the order.
 */
function withParents(parents: readonly string[], order: readonly string[], shapes: TableShapes | undefined): string[] {
  const out = [...order];
  for (const parent of parents) {
    const after = Math.max(-1, ...(shapes?.get(parent) ?? []).map((c) => (c.references ? out.indexOf(c.references.table) : -1)));
    out.splice(after + 1, 0, parent);
  }
  return out;
}

function tablesInOrder(world: World, order: readonly string[]): string[] {
  return [...order.filter((t) => world[t]?.length), ...Object.keys(world).filter((t) => !order.includes(t) && world[t].length)];
}

function build(modelWorld: World, modelOrder: readonly string[], plan: FixturePlan, perRow: boolean): FixtureStatement[] {
  const mapping = plan.mapping;
  const world = worldOnTargetInTenants(plan, modelWorld, (w) => (mapping ? worldToTarget(mapping, w) : w));
  const order = mapping ? orderToTarget(mapping, modelOrder) : modelOrder;
  const usersTable = mapping ? targetTable(mapping, 'users') : 'users';
  // The column holding the auth.users id: the key, unless the target keys its users otherwise (auth-identity.ts).
  const usersId = authIdentityColumn(mapping, 'users') ?? ((mapping && targetColumn(mapping, 'users', 'id')) || 'id');
  // Completed from the target's schema; parents a NOT NULL foreign key needs are created and written before it.
  const { world: filled, parents, lookups } = plan.shapes ? fillWorldInTenant(world, plan.shapes, new Set([...order, ...Object.keys(world)]), plan.tenantColumn, holdsSecondTenant(modelWorld)) : { world, parents: [] as string[], lookups: [] as string[] };
  const seeded = new Set((plan.seededTables ?? []).filter((t) => !plan.emptyTables?.includes(t)));
  const keyOf = (table: string) => plan.shapes?.get(table)?.find((c) => c.primaryKey)?.name;
  const empty = childrenFirst(plan.emptyTables ?? [], plan.shapes).map((t): FixtureStatement => ({ table: t, row: null, sql: `delete from ${qualifiedTable(t)}` }));
  const statements = tablesInOrder(filled, withParents(parents, order, plan.shapes)).flatMap((table) => {
    const upsertOn = seeded.has(table) ? keyOf(table) : undefined;
    const groups = perRow ? filled[table].map((r) => [r]) : [filled[table]];
    const identityAlways = shapeColumns(plan.shapes, table).identityAlways;
    const conflicts = lookups.includes(table) ? NOTHING : upsertOn;
    if (upsertOn && conflicts === upsertOn) refuseRowsSharingKey(table, filled[table], upsertOn, plan.shapes?.get(table)?.find((c) => c.name === upsertOn));
    const writes = [...groups.map((rows) => insertRows(table, perRow ? rows[0] : rows, rows, conflicts, identityAlways)), ...sequencesPastFixtures(table, filled[table], plan.shapes)];
    return plan.users === 'auth-trigger' && table === 'auth.users' && plan.bypassTriggers !== true ? [...writes, removeTriggerMadeUsers(filled, usersTable, usersId)] : writes;
  });
  if (plan.columnsAsRows) statements.push(...columnsAsRowsStatements(modelWorld, plan.columnsAsRows, ownerKeyInTarget(modelWorld, world, mapping)));
  if (Array.isArray(plan.bypassTriggers)) {
    const named = plan.bypassTriggers as readonly string[];
    return [...named.map((t) => toggleTrigger(t, false)), ...empty, ...statements, ...named.map((t) => toggleTrigger(t, true))];
  }
  if (!plan.bypassTriggers) return [...empty, ...statements];
  return [
    ...empty,
    { table: '(settings)', row: null, sql: `set local session_replication_role = replica` },
    ...statements,
    { table: '(settings)', row: null, sql: `set local session_replication_role = origin` },
  ];
}

/**
 * A seeded table's rows are written over its key (a world's row replaces a seeded one): two rows
 * of the case with one key value (given, or the column's constant default: a singleton settings
 * row keyed `singleton boolean default true`) are rows the target cannot hold side by side, so the
 * case is dropped and named, where Postgres would refuse the write as a harness error (21000).
 */
function refuseRowsSharingKey(table: string, rows: readonly Row[], key: string, shape: ColumnShape | undefined): void {
  const seen = new Set<string>();
  for (const r of rows) {
    const value = key in r ? r[key] : shape?.constantDefault;
    if (value === undefined || value === null) continue;
    const text = JSON.stringify(value);
    if (seen.has(text)) throw new UnfillableColumn(`${table} holds one row per ${key} (${text}${key in r ? '' : ', its default'}): this case has more ${table} rows than the target's key tells apart; no mapping makes them (accept fewer cases)`, table);
    seen.add(text);
  }
}

/**
 * The world completed for the target (fill-row.ts), in the caller's tenant where the target has one
 * (tenant-world.ts): its row made first, named by every row holding the tenant column, and every
 * person's membership of it (tenant-membership.ts), written last and `on conflict do nothing` (a
 * trigger on the tenant table may have made its owner's). A copy of the world in a second tenant
 * (second-tenant.ts) has its own tenant row, owned by and joined by the copy's people only: the
 * caller never becomes a member of it.
 */
function fillWorldInTenant(world: World, shapes: TableShapes, modelTables: ReadonlySet<string>, tenantColumn: string | undefined, secondTenant: boolean): ReturnType<typeof fillWorldWithParents> {
  const tenant = tenantOf(shapes, tenantColumn);
  if (!tenant || tenant.table in world) return fillWorldWithParents(world, shapes, modelTables);
  const inTenant = worldInCallerTenant(world, shapes, tenant);
  const { caller, second } = secondTenant ? splitByTenant(inTenant) : { caller: inTenant, second: {} };
  const members = secondTenant ? joined(membershipRows(caller, shapes, tenant, modelTables), membershipRows(second, shapes, tenant, modelTables, tenant.secondKey)) : membershipRows(caller, shapes, tenant, modelTables);
  const tenantRows = [callerTenantRow(tenant, shapes, caller), ...(secondTenant ? [callerTenantRow(tenant, shapes, second, true)] : [])];
  const filled = fillWorldWithParents({ ...inTenant, ...members }, shapes, modelTables, { [tenant.table]: tenantRows });
  return { ...filled, lookups: [...filled.lookups, ...Object.keys(members)] };
}

/** A model row's key as the target world keeps it (the same row of the translated world, by position). */
function ownerKeyInTarget(modelWorld: World, world: World, mapping: TargetMapping | undefined) {
  return (table: string, row: Record<string, unknown>): unknown => {
    const at = (modelWorld[table] ?? []).indexOf(row as Row);
    const targetRows = world[mapping ? targetTable(mapping, table) : table] as Record<string, unknown>[] | undefined;
    const id = (mapping && targetColumn(mapping, table, 'id')) || 'id';
    return targetRows?.[at]?.[id] ?? row.id;
  };
}

/** One statement per table. Rows of a table may differ in keys (a missing key is inserted as null). */
export function fixtureStatements(world: World, order: readonly string[], plan: FixturePlan = REFERENCE_PLAN): FixtureStatement[] {
  return build(world, order, plan, false);
}

/** One statement per row: slower, but a refusal names its row. */
export function fixtureStatementsPerRow(world: World, order: readonly string[], plan: FixturePlan = REFERENCE_PLAN): FixtureStatement[] {
  return build(world, order, plan, true);
}

/** Why a request was left out of a case (`PropertyResult.dropped`): it names a column mapped to null. */
export function droppedColumnReason(column: string): string {
  return `names ${column}, ${MAPPED_TO_NULL}`;
}

/**
 * A case as this target can take it: the requests that name a column the mapping says the
 * target does not have (`null`) cannot be sent, so they are left out, each counted by its
 * reason; so are reads embedding a table (request.ts Embed) that names.ts cannot translate (a
 * `!hint`, two schemas, an order the target sorts otherwise) or whose catalog has no foreign key between the two
 * tables (the relationship is the model's, not the target's). The rest of the case runs as it is
 * (the model predicts it without them). No request left: no case (`testCase` undefined).
 * `modelTables`: the model's tables, whose columns with a `check` of their own hold words the
 * model reads (id-formats.ts columnFormats); without them no listed word is renamed.
 */
export function sendableCase<C extends { steps: readonly { caller?: Caller; request: ApiRequest }[] }>(plan: FixturePlan, given: C, modelTables?: ModelColumnChecks): { testCase?: C; dropped: Record<string, number> } {
  const dropped: Record<string, number> = {};
  if (!plan.mapping && !plan.shapes) return { testCase: given, dropped };
  // Columns the target's insert trigger fills from auth.uid() (callerFilled) are sent as drawn: only the model's copy fills them (predict.ts).
  const mapping = plan.mapping;
  // Ids the target's key format refuses, renamed in the whole case (id-formats.ts), then ids
  // inside the text a case writes as the target keeps them (mapping.ts idsInTextAsTarget).
  const formatted = withRepeatedKeysLeftOut(plan, withDanglingSetNullCleared(plan, inTargetFormat(plan, given, modelTables)));
  const inText = mapping && 'world' in formatted ? idsInTextAsTarget(mapping, caseRows(formatted.world as World, formatted.steps)) : undefined;
  const rewritten = inText ? formatted.steps.map((step) => ({ ...step, request: textOfRequest(step.request, inText) })) : formatted.steps;
  const testCase = rewritten.every((s, i) => s.request === formatted.steps[i].request) ? formatted : { ...formatted, steps: rewritten };
  const drop = (reason: string) => {
    dropped[reason] = (dropped[reason] ?? 0) + 1;
    return false;
  };
  const steps = testCase.steps.filter((step) => {
    if (!plan.mapping) {
      const unembeddable = unembeddableOnTarget(plan, step.request);
      return unembeddable ? drop(unembeddable) : true;
    }
    try {
      // Embeds are judged in the target's names (its shapes are keyed so).
      const unembeddable = unembeddableOnTarget(plan, requestToTarget(plan.mapping, step.request));
      return unembeddable ? drop(unembeddable) : true;
    } catch (e) {
      if (!(e instanceof UnmappableRequest) || !(e.column || e.dropReason)) throw e;
      return drop(e.dropReason ?? droppedColumnReason(e.column!));
    }
  });
  if (steps.length === testCase.steps.length) return { testCase, dropped };
  return { ...(steps.length ? { testCase: { ...testCase, steps } } : {}), dropped };
}

/** A case whose world's rows repeating a unique key of the target are left out (repeated-keys.ts). */
function withRepeatedKeysLeftOut<C extends { steps: readonly { request: ApiRequest }[] }>(plan: FixturePlan, given: C): C {
  if (!plan.shapes || !('world' in given)) return given;
  const world = repeatedKeysLeftOut(given.world as World, plan.shapes, plan.mapping, tenantOf(plan.shapes, plan.tenantColumn));
  return world === given.world ? given : { ...given, world };
}

/** A case whose world rows name a parent it lacks through an `on delete set null` key, taken with those references null (set-null-references.ts). */
function withDanglingSetNullCleared<C extends { steps: readonly { request: ApiRequest }[] }>(plan: FixturePlan, given: C): C {
  if (!plan.shapes || !('world' in given)) return given;
  const world = danglingSetNullCleared(given.world as World, plan.shapes, plan.mapping);
  return world === given.world ? given : { ...given, world };
}

/** The model's tables as sendableCase reads them: which columns hold words of the model's own (a `check`). */
export type ModelColumnChecks = Readonly<Record<string, { columns: readonly { name: string; check?: unknown }[] }>>;

const keyFormats = new WeakMap<FixturePlan, Map<string, string | undefined>>();
const NO_MODEL: ModelColumnChecks = {};
const valueFormats = new WeakMap<FixturePlan, WeakMap<ModelColumnChecks, Map<string, ReadonlyMap<string, ColumnFormat>>>>();

/**
 * A case whose stored ids the target's key formats refuse, and whose world's values other format
 * CHECKs refuse, with each renamed to one they accept (id-formats.ts); the same case when none is.
 */
function inTargetFormat<C extends { steps: readonly { caller?: Caller; request: ApiRequest }[] }>(plan: FixturePlan, given: C, modelTables: ModelColumnChecks = NO_MODEL): C {
  const shapes = plan.shapes;
  if (!shapes || !('world' in given)) return given;
  let byTable = keyFormats.get(plan);
  if (!byTable) keyFormats.set(plan, (byTable = new Map()));
  const formats = byTable;
  const formatOf = (table: string) => {
    if (!formats.has(table)) formats.set(table, keyFormat(shapes, plan.mapping, table));
    return formats.get(table);
  };
  let byModel = valueFormats.get(plan);
  if (!byModel) valueFormats.set(plan, (byModel = new WeakMap()));
  let byColumns = byModel.get(modelTables);
  if (!byColumns) byModel.set(modelTables, (byColumns = new Map()));
  const columns = byColumns;
  // Without the model's tables, every column counts as holding the model's words: none renamed.
  const modelHoldsWords = (table: string) => (column: string) => modelTables === NO_MODEL || modelTables[table]?.columns.find((c) => c.name === column)?.check !== undefined;
  const columnsOf = (table: string) => {
    if (!columns.has(table)) columns.set(table, columnFormats(shapes, plan.mapping, table, modelHoldsWords(table)));
    return columns.get(table)!;
  };
  const world = given.world as World;
  // Read only where a listed word would be renamed: the values the steps send (bodies, arguments, filters).
  let sent: ReadonlySet<string> | undefined;
  const namedBySteps = (value: string) => (sent ??= valuesSentBy(given.steps)).has(value);
  const rename = idsInTargetFormat(formatOf, caseRows(world, given.steps), columnsOf, world, namedBySteps);
  if (!rename) return given;
  return { ...given, world: rename(world as unknown as Json) as unknown as World, steps: given.steps.map((step) => ({ ...step, ...callerRenamed(step.caller, rename), request: valuesOfRequest(step.request, rename) })) };
}

/** Every text a case's steps send (bodies, arguments, filter values), nested ones too. */
function valuesSentBy(steps: readonly { request: ApiRequest }[]): ReadonlySet<string> {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.add(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const { request } of steps) {
    if (request.kind === 'rpc') walk(request.args);
    if (request.kind === 'insert') walk(request.rows);
    if (request.kind === 'update') walk(request.patch);
    if ('filters' in request) for (const f of request.filters) walk(f.value);
  }
  return out;
}

/** A signed-in caller whose e-mail (a token claim) the case's renaming changes, renamed so: the person stays the one the world names. */
function callerRenamed(caller: Caller | undefined, rename: (v: Json) => Json): { caller?: Caller } {
  if (caller?.kind !== 'user' || caller.email === undefined) return {};
  const email = rename(caller.email) as string;
  return email === caller.email ? {} : { caller: { ...caller, email } };
}

/** A request with `rename` applied to every value it sends (bodies, arguments, filters); names as they are. */
function valuesOfRequest(request: ApiRequest, rename: (v: Json) => Json): ApiRequest {
  const written = textOfRequest(request, (values) => rename(values) as Row);
  if (!('filters' in written) || !written.filters.length) return written;
  return { ...written, filters: written.filters.map((f) => ({ ...f, value: rename(f.value as Json) as typeof f.value })) } as ApiRequest;
}

/** A case's world and the rows its steps insert, by model table (their ids may be named in later text): a table a step inserts into keeps its world rows too. */
function caseRows(world: World, steps: readonly { request: ApiRequest }[]): Record<string, readonly Row[]> {
  const out: Record<string, readonly Row[]> = { ...world };
  for (const { request } of steps) if (request.kind === 'insert') out[targetName(request)] = [...(out[targetName(request)] ?? []), ...request.rows];
  return out;
}

/** A request with `inText` applied to what it writes (each row, the patch, the arguments); filters and names as they are. The same object when nothing changed. */
function textOfRequest(request: ApiRequest, inText: (values: Row) => Row): ApiRequest {
  const changed = (before: Json, after: Json) => JSON.stringify(before) !== JSON.stringify(after);
  if (request.kind === 'rpc') {
    const args = inText(request.args);
    return changed(request.args, args) ? { ...request, args } : request;
  }
  if (request.kind === 'insert') {
    const rows = request.rows.map(inText);
    return changed(request.rows, rows) ? { ...request, rows } : request;
  }
  if (request.kind === 'update') {
    const patch = inText(request.patch);
    return changed(request.patch, patch) ? { ...request, patch } : request;
  }
  return request;
}

/** Why this target cannot take a read's embeds as the model means them (see sendableCase), or undefined. `request` in the target's names. */
function unembeddableOnTarget(plan: FixturePlan, request: ApiRequest): string | undefined {
  if (request.kind !== 'select' || !request.embeds?.length || !plan.shapes) return undefined;
  const parent = targetName(request);
  // An embed names a table of its parent's schema (shapes are keyed `schema.table` outside public).
  const embedded = (name: string) => targetName({ ...request, table: name });
  const joins = (from: string, to: string) => (plan.shapes!.get(from) ?? []).some((c) => c.references?.table === to);
  // Directly, through a junction referencing both, or (a self-referencing key's parent, `parent_id(*)`) by the parent's key column.
  // A junction only where both keys are junction keys, as the model's embeds read them (model/embed.ts isJunctionKey): a table
  // merely referencing both (stranger-app-7's project_files) makes no relationship, PGRST200.
  const junctionKeyTo = (junction: string, to: string) => {
    const columns = plan.shapes!.get(junction) ?? [];
    const primaryKey = columns.flatMap((c) => c.uniqueTogether ?? []).find((u) => u.primaryKey)?.columns ?? [];
    return columns.some((c) => c.references?.table === to && isJunctionKey({ inPrimaryKey: primaryKey.includes(c.name), unique: c.unique }));
  };
  const throughJunction = (table: string) => [...plan.shapes!.keys()].some((j) => junctionKeyTo(j, parent) && junctionKeyTo(j, table));
  const byColumn = (target: string) => (plan.shapes!.get(parent) ?? []).some((c) => c.name === target && c.references !== undefined);
  const missing = request.embeds.find((e) => !joins(embedded(e.table), parent) && !joins(parent, embedded(e.table)) && !throughJunction(embedded(e.table)) && !byColumn(e.table));
  return missing ? `embeds ${missing.table} in ${parent}, which no foreign key of the target joins` : undefined;
}

/** The target's column for a model table's column (its type, its constraints), or undefined when the target was not read from its catalog or lacks it. */
export function targetColumnShape(plan: FixturePlan, table: string, column: string): ColumnShape | undefined {
  if (!plan.shapes) return undefined;
  const onTarget = plan.mapping ? targetColumn(plan.mapping, table, column) : column;
  return onTarget === null ? undefined : plan.shapes.get(plan.mapping ? targetTable(plan.mapping, table) : table)?.find((c) => c.name === onTarget);
}

/** Whether a model request goes to a table or function the mapping sends as SQL (`via: "sql"`), not through the API. */
export function sentAsSql(plan: FixturePlan, request: ApiRequest | undefined): boolean {
  if (request === undefined) return false;
  const mapped = request.kind === 'rpc' ? plan.mapping?.functions?.[targetName(request)] : plan.mapping?.tables?.[targetName(request)];
  return mapped?.via === 'sql';
}

/**
 * A model request as it is sent to this target (the run, its replay and its psql repro send the
 * same): in the target's names, and an INSERT completed with the NOT NULL columns only the
 * target has, and with the caller's tenant (tenant-world.ts).
 */
export function requestForTarget(plan: FixturePlan, request: ApiRequest): ApiRequest {
  const named = withSchemaOfDottedTable(request);
  const mapped = plan.mapping ? requestToTarget(plan.mapping, named) : named;
  if (!plan.shapes || mapped.kind !== 'insert') return mapped;
  const tenant = tenantOf(plan.shapes, plan.tenantColumn);
  const rows = fillInsertRows(targetName(mapped), mapped.rows, plan.shapes);
  return { ...mapped, rows: tenant ? insertRowsInCallerTenant(targetName(mapped), rows, plan.shapes, tenant) : rows };
}

/** Per plan and model: each model table's constant defaults (model names), read off the shapes once, not per case. */
const constantDefaultsCache = new WeakMap<FixturePlan, WeakMap<object, Map<string, [string, Json][]>>>();

function constantDefaultsOf(plan: FixturePlan, modelTables: Readonly<Record<string, { columns: readonly { name: string }[] }>>, table: string): [string, Json][] {
  let byModel = constantDefaultsCache.get(plan);
  if (!byModel) constantDefaultsCache.set(plan, (byModel = new WeakMap()));
  let byTable = byModel.get(modelTables);
  if (!byTable) byModel.set(modelTables, (byTable = new Map()));
  let defaults = byTable.get(table);
  if (!defaults) {
    const known = modelTables[table]?.columns ?? [];
    const onTarget: Row = {};
    for (const c of plan.shapes?.get(plan.mapping ? targetTable(plan.mapping, table) : table) ?? []) if (c.constantDefault !== undefined) onTarget[c.name] = c.constantDefault;
    defaults = Object.entries(plan.mapping ? arrayOfOneToModel(plan.mapping, table, rowToModel(plan.mapping, table, onTarget)) : onTarget).filter(([column]) => known.some((c) => c.name === column)) as [string, Json][];
    byTable.set(table, defaults);
  }
  return defaults;
}

/**
 * The model's world as the target holds it once written: a row that leaves out a column the
 * model knows and the database fills with a constant default (`status default 'draft'`,
 * `is_public default false`, `'{}'::jsonb`) gets that value, so the model predicts from the row
 * the database has. Computed defaults (now(), nextval, gen_random_uuid()) stay out: such columns
 * are the model's `serverAssigned` ones, not compared. Unchanged without the target's catalog.
 */
export function worldAsStored<S>(
  plan: FixturePlan,
  world: World,
  modelTables: Readonly<Record<string, { columns: readonly (DrawnColumnFacts<S> & { serverAssigned?: boolean })[] }>>,
  settings?: S,
  noRowMadeFor: ReadonlySet<Json> = NOBODY,
): World {
  const drawn = settings === undefined ? world : withTargetDrawn(world, modelTables, settings);
  return plan.shapes ? withConstantDefaults(plan, withIdentityRows(plan, drawn, modelTables, noRowMadeFor), modelTables) : drawn;
}

const NOBODY: ReadonlySet<Json> = new Set();

/**
 * The case's signed-in callers whose token the pack minted from the world as drawn
 * (PackModel.claimsFromWorld: `claims.appMetadataRole: users.role`, a role claim read off their
 * users row): a person row made for them afterwards (withIdentityRows) would give them, in the
 * model's world, a role their token does not carry, so none is made and such a case stays dropped.
 */
export function callersWithTokensFromWorld<S>(oracle: { model: { claimsFromWorld?: (settings: S) => boolean }; settings: S }, steps: readonly { caller: Caller }[]): ReadonlySet<Json> {
  if (!oracle.model.claimsFromWorld?.(oracle.settings)) return NOBODY;
  return new Set(steps.flatMap((s) => (s.caller.kind === 'user' ? [s.caller.id] : [])));
}

/**
 * A row naming an identity through a model table keyed by the case's people (keyHoldsIdentities;
 * stranger-app-3: `passport.profiles.user_id references public.users`, whose `id references
 * auth.users`; stranger-app-8: `passport.profiles."userId" references "User"`) where the
 * world has no row of that table for it (the model's people without a users row: R20's extra
 * profiles): the target cannot hold it (a foreign key), so that row is made, in the model's world
 * too, which then predicts from the row the target holds: its key, the columns it shares with
 * auth.users (email) from the identity's row, null where the target allows it, the rest left to
 * the target's constant defaults (withConstantDefaults) or, a column the server assigns, to the
 * filler. A caller of the case gets it too (a submitter with no users row, stranger-app-15's R20
 * caller reading their own profile): the model then judges them with the row the target must
 * hold (its role the target's default, or null), where the case was dropped before; not one
 * whose token was minted from the world as drawn (`noRowMadeFor`: callersWithTokensFromWorld),
 * which would not carry that role. (examples/service-desk's R04 at seed 11, red with the made row
 * in session 22, was no disagreement: the one case reaching its `R04.slips` refused side was a
 * dropped one, which excused the gap, and with fewer cases dropped it was no longer drawn.) A NOT NULL
 * text column of no vocabulary the identity does not give (stranger-app-15's `"displayName"`)
 * gets the filler's text, in both worlds. Never where another column the model knows needs a
 * value only the target's filler could make.
 */
function withIdentityRows(plan: FixturePlan, world: World, modelTables: Readonly<Record<string, { columns: readonly { name: string; serverAssigned?: boolean }[] }>>, noRowMadeFor: ReadonlySet<Json>): World {
  const identities = new Map((world['auth.users'] ?? []).map((r) => [r.id, r]));
  if (!identities.size) return world;
  let out: World | undefined;
  let filled = 0;
  for (const [table, rows] of Object.entries(world)) {
    if (!rows.length || !modelTables[table]) continue;
    for (const { column, parent, key, parentColumns } of identityReferencesOf(plan, modelTables, table)) {
      for (const r of rows) {
        const id = r[column];
        const identity = identities.get(id);
        const held = (out ?? world)[parent] ?? [];
        if (!identity || typeof id !== 'string' || noRowMadeFor.has(id) || held.some((p) => p[key] === id)) continue;
        const made: Row = { [key]: id };
        let fits = true;
        for (const m of modelTables[parent].columns) {
          const shape = parentColumns.get(m.name);
          // A column the server assigns (an `updatedAt` the app fills) is not compared: the filler completes it.
          if (m.name === key || !shape || shape.generated || shape.hasDefault || m.serverAssigned) continue;
          if (m.name in identity) made[m.name] = identity[m.name];
          else if (!shape.notNull) made[m.name] = null;
          else if (freeText(shape)) made[m.name] = valueFor(parent, shape, ++filled, world);
          else fits = false;
        }
        if (!fits) continue;
        out ??= { ...world };
        out[parent] = [...held, made];
      }
    }
  }
  return out ?? world;
}

/** A text column a value of the filler's means the same to the model and the target: no words of its own, no reference. */
const freeText = (shape: ColumnShape): boolean => holdsText(shape) && !shape.vocabulary && !shape.enumLabels?.length && !shape.references;

/** A model table's column referencing another model table's (`parent`'s) key, which itself references auth.users: an identity's row there is one withIdentityRows may add. */
interface IdentityReference {
  column: string;
  parent: string;
  key: string;
  /** The parent's target columns by model name (undefined: the target lacks it). */
  parentColumns: ReadonlyMap<string, ColumnShape | undefined>;
}

/** Per plan and model: each model table's identity references (model names), read off the shapes once, not per case. */
const identityReferencesCache = new WeakMap<FixturePlan, WeakMap<object, Map<string, readonly IdentityReference[]>>>();

function identityReferencesOf(plan: FixturePlan, modelTables: Readonly<Record<string, { columns: readonly { name: string }[] }>>, table: string): readonly IdentityReference[] {
  let byModel = identityReferencesCache.get(plan);
  if (!byModel) identityReferencesCache.set(plan, (byModel = new WeakMap()));
  let byTable = byModel.get(modelTables);
  if (!byTable) byModel.set(modelTables, (byTable = new Map()));
  let known = byTable.get(table);
  if (!known) byTable.set(table, (known = identityReferencesRead(plan, modelTables, table)));
  return known;
}

function identityReferencesRead(plan: FixturePlan, modelTables: Readonly<Record<string, { columns: readonly { name: string }[] }>>, table: string): IdentityReference[] {
  const shapes = plan.shapes!;
  const mapping = plan.mapping;
  const onTarget = (t: string) => (mapping ? targetTable(mapping, t) : t);
  const columnOnTarget = (t: string, column: string) => (mapping ? targetColumn(mapping, t, column) : column);
  const modelOf = new Map(Object.keys(modelTables).map((t) => [onTarget(t), t]));
  const found: IdentityReference[] = [];
  for (const c of shapes.get(onTarget(table)) ?? []) {
    const parent = c.references && modelOf.get(c.references.table);
    if (!parent || parent === table) continue;
    const parentShapes = shapes.get(c.references!.table) ?? [];
    const column = modelTables[table].columns.find((m) => columnOnTarget(table, m.name) === c.name)?.name;
    const key = modelTables[parent].columns.find((m) => columnOnTarget(parent, m.name) === c.references!.column)?.name;
    if (!column || !key || !keyHoldsIdentities(parent, key, parentShapes.find((p) => p.name === c.references!.column))) continue;
    const parentColumns = new Map(modelTables[parent].columns.map((m) => [m.name, parentShapes.find((p) => p.name === columnOnTarget(parent, m.name))]));
    found.push({ column, parent, key, parentColumns });
  }
  return found;
}

/**
 * Whether a model table's key holds the case's people (auth.users ids): the target says so by a
 * foreign key to auth.users, or it is the model's `users.id` (the people's rows, as fixtureStatements
 * reads them), which an app keying its own users table by the token's `sub` (stranger-app-8's Prisma
 * `User`, a text id referencing nothing) holds without one.
 */
function keyHoldsIdentities(parent: string, key: string, targetKey: ColumnShape | undefined): boolean {
  return targetKey?.references?.table === 'auth.users' || (parent === 'users' && key === 'id');
}

/** The values the model draws where the target draws its own (ColumnSpec.targetDraws) written into each row, as the fixtures then write them. */
export function withTargetDrawn<S>(world: World, modelTables: Readonly<Record<string, { columns: readonly DrawnColumnFacts<S>[] }>>, settings: S): World {
  let out: World | undefined;
  for (const [table, rows] of Object.entries(world)) {
    const model = modelTables[table];
    const drawn = rows.length && model ? targetDrawnColumns(model, settings) : [];
    if (!drawn.length || rows.every((r) => drawn.every((c) => c.name in r))) continue;
    out ??= { ...world };
    out[table] = rows.map((r) => (drawn.every((c) => c.name in r) ? r : { ...Object.fromEntries(drawn.map((c) => [c.name, c.generated!(r, settings)])), ...r }));
  }
  return out ?? world;
}

function withConstantDefaults(plan: FixturePlan, world: World, modelTables: Readonly<Record<string, { columns: readonly { name: string }[] }>>): World {
  let stored: World | undefined;
  for (const [table, rows] of Object.entries(world)) {
    if (!rows.length) continue;
    const defaults = constantDefaultsOf(plan, modelTables, table);
    const sums = sumsOf(plan, modelTables, table);
    if ((!defaults.length || rows.every((r) => defaults.every(([column]) => column in r))) && (!sums.length || rows.every((r) => sumHolds(r, sums)))) continue;
    stored ??= { ...world };
    stored[table] = rows.map((r) => {
      const withDefaults = defaults.every(([column]) => column in r) ? r : { ...Object.fromEntries(defaults), ...r };
      return sumHolds(withDefaults, sums) ? withDefaults : withSums(withDefaults, sums);
    });
  }
  return stored ?? world;
}

/** A CHECK `total = subtotal + fee` in the model's names, where the model knows every column of it. */
interface ModelSum {
  column: string;
  addends: string[];
}

const sumsCache = new WeakMap<FixturePlan, Map<string, ModelSum[]>>();

/** The target's sum CHECKs on a model table (check-forms.ts), in the model's column names: a drawn row's derived column is written as the sum, so the model and the target hold the same row. */
function sumsOf(plan: FixturePlan, modelTables: Readonly<Record<string, { columns: readonly { name: string }[] }>>, table: string): ModelSum[] {
  let byTable = sumsCache.get(plan);
  if (!byTable) sumsCache.set(plan, (byTable = new Map()));
  let sums = byTable.get(table);
  if (!sums) {
    const known = modelTables[table]?.columns ?? [];
    const modelName = (target: string) => known.find((c) => (plan.mapping ? targetColumn(plan.mapping, table, c.name) : c.name) === target)?.name;
    sums = [];
    for (const c of plan.shapes?.get(plan.mapping ? targetTable(plan.mapping, table) : table) ?? []) {
      for (const check of c.checks ?? []) {
        if (check.kind !== 'sum') continue;
        const column = modelName(check.column);
        const addends = check.addends.map(modelName);
        if (column !== undefined && addends.every((a) => a !== undefined)) sums.push({ column, addends: addends as string[] });
      }
    }
    byTable.set(table, sums);
  }
  return sums;
}

const isNumber = (v: Json | undefined): v is number => typeof v === 'number';

/** Whether a row holds its sums (a row leaving out a column, or holding a non-number, is the database's to judge). */
function sumHolds(row: Row, sums: readonly ModelSum[]): boolean {
  return sums.every((s) => !isNumber(row[s.column]) || !s.addends.every((a) => isNumber(row[a])) || row[s.column] === s.addends.reduce((t, a) => t + (row[a] as number), 0));
}

function withSums(row: Row, sums: readonly ModelSum[]): Row {
  const out = { ...row };
  for (const s of sums) if (isNumber(out[s.column]) && s.addends.every((a) => isNumber(out[a]))) out[s.column] = s.addends.reduce((t, a) => t + (out[a] as number), 0);
  return out;
}

/**
 * The case's signed-in callers as Supabase Auth issues their tokens: a user caller that names no
 * `email` (and is not anonymous) carries the e-mail of its `auth.users` row in the world, as the
 * access token's `email` claim does (what `auth.email()` and `auth.jwt() ->> 'email'` read).
 * Without it the token held an empty e-mail, and a policy on `auth.email() = email` denied the
 * owner. The same steps object when nothing changes.
 */
export function callersAsIssued<T extends { caller: Caller }>(world: World, steps: T[]): T[] {
  const needs = (c: Caller) => c.kind === 'user' && c.email === undefined && c.isAnonymous !== true;
  if (!steps.some((s) => needs(s.caller))) return steps;
  const emails = new Map<unknown, string>();
  for (const u of world['auth.users'] ?? []) if (typeof u.email === 'string') emails.set(u.id, u.email);
  const issued = new Map<Caller, Caller>();
  let changed = false;
  const out = steps.map((s) => {
    if (!needs(s.caller) || s.caller.kind !== 'user') return s;
    const email = emails.get(s.caller.id);
    if (email === undefined) return s;
    changed = true;
    // One caller object per caller (a case's steps share theirs: tokens are made once per object).
    let c = issued.get(s.caller);
    if (!c) issued.set(s.caller, (c = { ...s.caller, email }));
    return { ...s, caller: c };
  });
  return changed ? out : steps;
}

/**
 * Why a model world (in the model's names) cannot exist on this target (realizable.ts), or
 * undefined. Only a target read from its catalog is asked: the bundled reference holds every
 * world its own model makes. `holds`: the world before a step, already found to hold here.
 */
export function unrealizableOnTarget(plan: FixturePlan, world: World, modelOrder: readonly string[], holds?: World): string | undefined {
  if (!plan.shapes) return undefined;
  const mapping = plan.mapping;
  const onTarget = worldOnTargetInTenants(plan, world, (w) => (mapping ? worldToTarget(mapping, w) : w));
  // A parent table the migrations seeded, and the fixtures keep, holds rows no world lists (a
  // Storage bucket a migration made): a foreign key into it is left to the database.
  const seededKept = new Set((plan.seededTables ?? []).filter((t) => !plan.emptyTables?.includes(t)));
  const modelTables = new Set([...(mapping ? orderToTarget(mapping, modelOrder) : modelOrder), ...Object.keys(onTarget)].filter((t) => !seededKept.has(t)));
  // `holds` is in the model's names: of use only unmapped.
  return unrealizableReason(onTarget, plan.shapes, modelTables, mapping ? undefined : holds);
}

/**
 * Why a write cannot be sent to this target as the model makes it, or undefined: it names a
 * column the target generates always (`id bigint generated always as identity`), which no
 * request may write (428C9), where the model writes its own id.
 */
export function unrealizableIdentityWrite(plan: FixturePlan, request: ApiRequest): string | undefined {
  if (!plan.shapes || (request.kind !== 'insert' && request.kind !== 'update')) return undefined;
  const table = targetName(request);
  const onTarget = plan.mapping ? targetTable(plan.mapping, table) : table;
  const always = (plan.shapes.get(onTarget) ?? []).filter((c) => c.identityAlways);
  for (const row of request.kind === 'insert' ? request.rows : [request.patch]) {
    for (const column of Object.keys(row)) {
      const target = plan.mapping ? targetColumn(plan.mapping, table, column) : column;
      if (always.some((c) => c.name === target)) return `${onTarget}.${target} is GENERATED ALWAYS (the target assigns it)`;
    }
  }
  return undefined;
}

/**
 * Why a call PostgREST found no function for (PGRST202) is a difference of signature, or
 * undefined: the schema cache holds a function of that name (an overload) taking every argument
 * the call sends but requiring one it leaves out (a `p_remarks jsonb` without a default). A
 * function the exposed schemas lack, or none taking the call's arguments, is no such difference:
 * the answer is judged (PostgREST answers a client the same).
 */
function requiredArgumentsLeftOut(plan: FixturePlan, message: string, sent: ApiRequest | undefined): string | undefined {
  const qualified = /^Could not find the function (\S+?)(?:\(| without parameters| in the schema cache)/.exec(message)?.[1];
  if (!qualified || sent?.kind !== 'rpc') return undefined;
  const keys = Object.keys(sent.args);
  for (const f of plan.functions?.get(qualified) ?? []) {
    if (!keys.every((k) => f.args.some((a) => a.name === k))) continue;
    const missing = f.args.filter((a) => !a.hasDefault && !keys.includes(a.name)).map((a) => a.name);
    if (missing.length) return `${qualified}(${f.args.map((a) => a.name).join(', ')}): the target's function requires ${missing.join(', ')}, which the model's call leaves out (PGRST202)`;
  }
  return undefined;
}

/**
 * A constraint error Postgres raises only after the row passed its CHECK constraints (ExecInsert and
 * ExecUpdate: row security's WITH CHECK, then NOT NULL and CHECK, then the unique indexes, then the
 * foreign keys at the statement's end): a row a CHECK of the target's refuses never reaches them.
 */
function checkedAfterChecks(expected: Outcome): boolean {
  return expected.kind === 'error' && (expected.code === '23505' || expected.code === '23503');
}

/** SQLSTATE query_canceled: what a statement_timeout raises. */
const STATEMENT_TIMEOUT = '57014';
/** Why a cancelled request is dropped; it names both timeouts, since the error does not say which one ran out. */
const STATEMENT_TIMEOUT_DROP = "a statement timeout cancelled the request (57014): the API role's own statement_timeout or, for a role without one (service_role), policyfuzz's bound on one statement: time, not rules (a loaded machine or a slow query)";

/**
 * Why a step cannot be judged here, from the target's answer, or undefined: a statement timeout
 * cancelled it; or a CHECK the model does not have refused a write the model lets succeed (or
 * refuses with a duplicate key or a missing parent, which Postgres checks after CHECKs); or a write the model lets succeed was refused with a duplicate of a key the model does not keep (key-the-model-lacks.ts; `modelKeys`); or with 23503 for a value missing from a table the model does not
 * know (a lookup table the project seeds, say `units`): the model cannot write that table's
 * rows, so the case is a difference of schema. Only a success the model expected is dropped: a
 * write the model refuses that reached the foreign key check was let through by the target's rules.
 * `modelOrder`: the model's tables (model names).
 */
export function unrealizableAnswer(plan: FixturePlan, response: ApiResponse, expected: Outcome, modelOrder: readonly string[], sent?: ApiRequest, modelKeys?: ModelKeysOnTarget): string | undefined {
  // A statement timeout cancelled the request: the API role's own (3 s for anon, 8 s for
  // authenticated on Supabase) or, for a role with none (service_role), policyfuzz's bound on the
  // workers' statements (runner/environment.ts): Postgres words both alike. A matter of time (a
  // loaded machine, a slow query), which no rule speaks of.
  if (response.error?.code === STATEMENT_TIMEOUT && !(expected.kind === 'error' && expected.code === STATEMENT_TIMEOUT)) return STATEMENT_TIMEOUT_DROP;
  // A stood-in extension's function (a trigger's id_encode, a request's http_post) refused: no rule spoke.
  const standIn = expected.kind === 'error' && expected.code === '0A000' ? undefined : standInRefusal(response.error);
  if (standIn) return standIn;
  if (plan.shapes && response.error?.code === '23514' && (expected.kind === 'allowed' || expected.kind === 'filtered' || checkedAfterChecks(expected))) {
    // A CHECK of the project's own (a phone format) refusing a value the model's columns accept:
    // the model's own CHECKs passed, so it is a difference of schema, not of rules. So too where
    // the model expects a duplicate key or a missing parent: Postgres checks a row's CHECKs first.
    const constraint = /violates check constraint "([^"]+)"/.exec(response.error.message)?.[1] ?? 'a CHECK';
    return `${constraint} refused a value the model writes (a CHECK the model does not have)`;
  }
  if (plan.shapes && response.error?.code === 'PGRST202' && !(expected.kind === 'error' && expected.code === 'PGRST202')) {
    const required = requiredArgumentsLeftOut(plan, response.error.message, sent);
    if (required) return required;
  }
  // A domain's CHECK (`email citext` domain) refuses a value while the body is read, before any
  // trigger or policy: a step the model refuses by its rules (a guard) is not judged by them here.
  const domain = response.error?.code === '23514' ? /^value for domain (\S+) violates check constraint "([^"]+)"/.exec(response.error.message) : null;
  if (plan.shapes && domain && !(expected.kind === 'error' && expected.code === '23514')) return `${domain[2]} (domain ${domain[1]}) refused a value while reading the body, before any rule (a CHECK the model does not have)`;
  const duplicate = plan.shapes && modelKeys ? duplicateOfKeyTheModelLacks(plan.shapes, response, expected, modelKeys) : undefined;
  if (duplicate) return duplicate;
  const callerDefault = plan.shapes && (expected.kind === 'allowed' || expected.kind === 'filtered') ? callerDefaultLeftNull(plan.shapes, response) : undefined;
  if (callerDefault) return callerDefault;
  if (!plan.shapes || response.error?.code !== '23503' || (expected.kind !== 'allowed' && expected.kind !== 'filtered')) return undefined;
  // Postgres leaves the key's values (and columns) out of the detail when the caller may not read the parent table.
  const key = /^Key (?:\(([^)]+)\)=\(.*\) )?is not present in table "([^"]+)"/s.exec(response.error.details ?? '');
  const table = /on table "([^"]+)"/.exec(response.error.message)?.[1];
  if (!key || !table) return undefined;
  const parent = key[2];
  const modelTables = new Set((plan.mapping ? orderToTarget(plan.mapping, modelOrder) : modelOrder).map((t) => t.split('.').pop()!));
  if (modelTables.has(parent)) return undefined;
  const column = key[1] ?? plan.shapes.get(table)?.find((c) => c.references?.table.split('.').pop() === parent)?.name ?? '(a column)';
  return `${table}.${column} needs a ${parent} row the target lacks (foreign key to a table outside the model)`;
}

/**
 * A write the model allows refused as NOT NULL (23502) on a column whose default is the caller's
 * (`org_id … default private.jwt_org_id()`: table-shapes.ts callerDefault), which the model's row
 * does not name: the caller's token holds no such claim (the server's, stranger-app-10's R05), so
 * the row the model writes cannot exist here. Undefined for any other refusal.
 */
function callerDefaultLeftNull(shapes: TableShapes, response: ApiResponse): string | undefined {
  if (response.error?.code !== '23502') return undefined;
  const at = /null value in column "([^"]+)" of relation "([^"]+)"/.exec(response.error.message);
  if (!at) return undefined;
  const [, column, relation] = at;
  const table = [...shapes.keys()].find((t) => t === relation || t.endsWith(`.${relation}`));
  if (!table || !shapes.get(table)!.some((c) => c.name === column && c.callerDefault)) return undefined;
  return `${table}.${column} ${CALLER_DEFAULT_LEFT_NULL}`;
}

/**
 * Why a write the model expects to break a constraint cannot be judged here, or undefined: it also
 * puts null into a column the target holds NOT NULL and the model lets be null, so which
 * constraint the target names first is a difference of schema, not of rules.
 * `modelNullable(table, column)`: the model's own say (model names).
 */
export function unrealizableWrite(plan: FixturePlan, request: ApiRequest, expected: Outcome, modelNullable: (table: string, column: string) => boolean): string | undefined {
  if (!plan.shapes || (request.kind !== 'insert' && request.kind !== 'update') || expected.kind !== 'error' || !expected.code.startsWith('23')) return undefined;
  const table = targetName(request);
  const onTarget = plan.mapping ? targetTable(plan.mapping, table) : table;
  const columns = plan.shapes.get(onTarget);
  for (const row of request.kind === 'insert' ? request.rows : [request.patch]) {
    for (const [column, value] of Object.entries(row)) {
      if (value !== null || !modelNullable(table, column)) continue;
      const target = plan.mapping ? targetColumn(plan.mapping, table, column) : column;
      if (target && columns?.find((c) => c.name === target)?.notNull) return `${onTarget}.${target} is NOT NULL`;
    }
  }
  return undefined;
}

/**
 * Why a write cannot be judged here, or undefined: it writes a value outside the labels of a
 * column the target types as an enum (`users.role app_role`), which Postgres refuses as input
 * (22P02) while reading the body, before any policy or trigger runs, where the model answers with
 * its rules (a CHECK's 23514, a guard, a policy, nothing matched): a difference of schema. A grant
 * refusal (checked first on the target too) and a success the model expects (a vocabulary the
 * mapping should translate) are still judged, but for an enum array's element (the model's text[]
 * holds free text).
 */
export function unrealizableEnumWrite(plan: Pick<FixturePlan, 'shapes' | 'mapping'>, request: ApiRequest, expected: Outcome): string | undefined {
  if (!plan.shapes || (request.kind !== 'insert' && request.kind !== 'update')) return undefined;
  if (expected.kind === 'rejected' && expected.by === 'grant') return undefined;
  const table = targetName(request);
  const onTarget = plan.mapping ? targetTable(plan.mapping, table) : table;
  const columns = plan.shapes.get(onTarget) ?? [];
  for (const row of request.kind === 'insert' ? request.rows : [request.patch]) {
    for (const [column, value] of Object.entries(row)) {
      const target = plan.mapping ? targetColumn(plan.mapping, table, column) : column;
      const shape = columns.find((c) => c.name === target);
      const onTargetValue = plan.mapping ? valueToTarget(plan.mapping, table, column, value) : value;
      if (!shape || !outsideEnum(shape, onTargetValue)) continue;
      // The model's text[] holds any text (no values mapping pairs free text), so an enum array's element outside its labels is no case even where the model expects success (stranger-app-7's permissions).
      if (expected.kind === 'allowed' && !shape.elementEnumLabels) continue;
      return `${onTarget}.${target} is an enum${shape.elementEnumLabels ? ' array' : ''}: a value outside its labels is refused as input (22P02) before any rule`;
    }
  }
  return undefined;
}

/**
 * A note for a project's run: the model's tables (in the target's names) that hold rows the
 * migrations seeded, which every case starts with besides its world's rows. A read of one shows a
 * row the model does not expect; `fixtures.emptyTables` deletes them before each case, for a
 * pack whose rules leave seeded rows aside. `written`: the tables the pack's worlds write (its
 * `fixtureOrder`, model names), for which the note says so rather than that they are not written.
 * `computedViews`: the model's views (model names), never named to empty.
 * Undefined when there are none (or no plan of a project).
 */
export function seededModelTablesNote(plan: FixturePlan, modelTables: readonly string[], written: readonly string[], computedViews: readonly string[] = []): string | undefined {
  if (!plan.seededTables?.length) return undefined;
  const onTarget = (t: string) => (plan.mapping ? targetTable(plan.mapping, t) : t);
  const writtenOnTarget = new Set(written.map(onTarget));
  const seeded = modelTables.map(onTarget).filter((t) => plan.seededTables!.includes(t) && !plan.emptyTables?.includes(t));
  if (!seeded.length) return undefined;
  const holds = (tables: string[]) => `${tables.join(', ')} ${tables.length > 1 ? 'hold' : 'holds'} rows the migrations seeded`;
  const alsoWritten = seeded.filter((t) => writtenOnTarget.has(t));
  const notWritten = seeded.filter((t) => !writtenOnTarget.has(t));
  const what = [
    ...(notWritten.length ? [`${holds(notWritten)}, which the pack's worlds do not write`] : []),
    ...(alsoWritten.length ? [`${holds(alsoWritten)} besides those the pack's worlds write (a world's row replaces a seeded one of the same key)`] : []),
  ];
  // Seeded rows referencing them must go too, or the delete fails (pgflow: steps and deps name the seeded flow).
  // A view the model computes from its tables (TableModel.view) shows their rows: emptying them empties it.
  const views = new Set(computedViews.map(onTarget));
  const toEmpty = [...seeded];
  for (let i = 0; i < toEmpty.length; i++) {
    for (const other of plan.seededTables) {
      const refers = (plan.shapes?.get(other) ?? []).some((c) => c.references?.table === toEmpty[i] || c.referencesTogether?.includes(toEmpty[i]));
      if (refers && !toEmpty.includes(other) && !plan.emptyTables?.includes(other) && !views.has(other)) toEmpty.push(other);
    }
  }
  const referrers = toEmpty.slice(seeded.length);
  return `${what.join('; ')}: every case starts with them, so a read finds rows its model does not expect. If the pack's rules leave them aside, "fixtures": { "emptyTables": ${JSON.stringify(toEmpty)} } deletes them before each case${referrers.length ? ` (${referrers.join(', ')}: seeded rows referencing them)` : ''} (docs/config.md)`;
}
