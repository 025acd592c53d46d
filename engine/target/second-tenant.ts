/**
 * A second tenant's world (`fixtures.tenantColumn`): besides the case's world, in the caller's
 * tenant (tenant-world.ts), the fixtures write a copy of it in another tenant row, with its own
 * people, every key and unique value renamed, so that a policy, function or view forgetting the
 * tenant filter (the most common multi-tenant bug) reaches a row it must not. The model is not
 * told of tenants: a signed-in caller's step is predicted from its own tenant's rows alone (the
 * copy is outside every answer it may get, whatever the rules would allow within a tenant), anon's
 * and the server's from both (they belong to no tenant: what anon may reach, anyone may), and a
 * caller may also get the copy's rows anon may reach (public rows are public in every tenant): that
 * prediction is predict-across-tenants.ts, the rest here.
 * Each of the case's steps naming a row of the world is sent again naming the copy's row instead
 * (appended: a case is cut before one the target cannot hold). Pure: no I/O, no SQL.
 *
 * The copy is told apart by its values: a key renamed (a uuid's first group SECOND_UUID_GROUP, a
 * text key ending SECOND_TEXT_MARK, an e-mail's local part ending `.t2`), which no row of the
 * caller's tenant holds. A table keyed by integers alone is not copied (left open).
 */
import type { Json, Row } from '../model/json.ts';
import type { World } from '../model/world.ts';
import type { ApiRequest } from '../model/request.ts';
import { appendedStep, modelRunOf, type DataCase, type DataStep } from '../runner/data-case.ts';
import type { TableShapes } from '../introspection/table-shapes.ts';
import { targetTable, type TargetMapping } from '../mapping/mapping.ts';
import { tenantColumnOf, tenantOf, worldInCallerTenant } from './tenant-world.ts';

const SECOND_UUID_GROUP = '5ec07e2a';
const SECOND_TEXT_MARK = '~t2';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A key's value in the copy (undefined: not a value a key is renamed from). */
function renamed(value: Json): Json | undefined {
  if (typeof value !== 'string' || value === '' || isSecondValue(value)) return undefined;
  if (UUID.test(value)) return SECOND_UUID_GROUP + value.slice(8);
  // An e-mail keeps its domain (a CHECK or domain may hold it to one): the local part is marked.
  const at = value.lastIndexOf('@');
  if (at > 0) return `${value.slice(0, at)}.t2${value.slice(at)}`;
  return value + SECOND_TEXT_MARK;
}

function isSecondValue(value: Json): boolean {
  if (typeof value !== 'string') return false;
  // Read for every value of every row a signed-in caller's step is predicted from: no pattern.
  return (value.length === 36 && value.startsWith(SECOND_UUID_GROUP) && value[8] === '-') || value.endsWith(SECOND_TEXT_MARK) || value.includes('.t2@');
}

/** The key columns of a world's table (the model's primary key; `id` for a table the model does not describe, auth.users). */
export type KeysOf = (table: string) => readonly string[];

/** Columns whose values are unique across the target (e-mails: auth.users, a profile's): renamed like keys. */
const UNIQUE_TEXT = ['email'];

/** Whether a request (or any value) names the copy: a twin step (withSecondTenant). */
export function namesSecondTenant(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(namesSecondTenant);
  if (value !== null && typeof value === 'object') return Object.values(value).some(namesSecondTenant);
  return isSecondValue(value as Json);
}

/** A row of the copy: it holds a renamed value (its key, at least). */
function isSecondRow(row: Row): boolean {
  for (const k in row) if (isSecondValue(row[k])) return true;
  return false;
}

/**
 * Whether a table's rows hold a row of the copy, kept per rows array: asked before every step a
 * signed-in caller sends, of worlds that share every table a step did not write (worlds are never
 * changed in place: a write makes a new array), so each array is read through once.
 */
const holdsSecondRows = new WeakMap<readonly Row[], boolean>();

function hasSecondRow(rows: readonly Row[]): boolean {
  let holds = holdsSecondRows.get(rows);
  if (holds === undefined) holdsSecondRows.set(rows, (holds = rows.some(isSecondRow)));
  return holds;
}

/** Whether the world holds a second tenant's copy (the case's world as the fixtures write it). */
export function holdsSecondTenant(world: World): boolean {
  for (const table in world) if (hasSecondRow(world[table])) return true;
  return false;
}

/** The world split by tenant: the caller's rows, and the copy's. */
export function splitByTenant(world: World): { caller: World; second: World } {
  const caller: World = {};
  const second: World = {};
  for (const [table, rows] of Object.entries(world)) {
    const theirs = rows.filter(isSecondRow);
    caller[table] = theirs.length ? rows.filter((r) => !theirs.includes(r)) : rows;
    if (theirs.length) second[table] = theirs;
  }
  return { caller, second };
}

/** `a`'s rows then `b`'s, table by table. */
export function joined(a: World, b: World): World {
  const out: World = { ...a };
  for (const [table, rows] of Object.entries(b)) out[table] = [...(out[table] ?? []), ...rows];
  return out;
}

/**
 * The copy of `world` in a second tenant: the rows of `copied` tables (those holding the tenant
 * column on the target, and the people), every key and e-mail renamed wherever the copy names it,
 * and the renaming (value → copy's value) the twin steps read.
 */
export function secondTenantCopy(world: World, copied: (table: string) => boolean, keysOf: KeysOf): { copy: World; renaming: Map<string, Json> } {
  const renaming = new Map<string, Json>();
  const note = (v: Json | undefined) => {
    const to = v === undefined ? undefined : renamed(v);
    if (to !== undefined) renaming.set(JSON.stringify(v), to);
  };
  for (const [table, rows] of Object.entries(world)) {
    if (!copied(table)) continue;
    for (const r of rows) for (const k of [...keysOf(table), ...UNIQUE_TEXT]) note(r[k]);
  }
  const copy: World = {};
  for (const [table, rows] of Object.entries(world)) {
    if (!copied(table) || !rows.length) continue;
    const keys = keysOf(table);
    // A row whose key is not renamed (none given) could not be told apart from the caller's: not copied.
    const copyable = rows.filter((r) => keys.some((k) => renaming.has(JSON.stringify(r[k] ?? null))));
    if (copyable.length) copy[table] = copyable.map((r) => renamedRow(r, renaming));
  }
  return { copy, renaming };
}

function renamedValue(v: Json, renaming: ReadonlyMap<string, Json>): Json {
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' ? (renaming.get(JSON.stringify(x)) ?? x) : x));
  if (typeof v === 'string' || typeof v === 'number') return renaming.get(JSON.stringify(v)) ?? v;
  return v;
}

function renamedRow(row: Row, renaming: ReadonlyMap<string, Json>): Row {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, renamedValue(v, renaming)]));
}

/** A request naming the copy's rows where it named the world's (undefined: it names none). Only values are renamed, never a limit or a column. */
function renamedRequest(request: ApiRequest, renaming: ReadonlyMap<string, Json>): ApiRequest | undefined {
  let changed = false;
  const value = (v: Json): Json => {
    const to = renamedValue(v, renaming);
    if (JSON.stringify(to) !== JSON.stringify(v)) changed = true;
    return to;
  };
  const row = (r: Row): Row => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, value(v)]));
  const filters = <F extends { value?: unknown }>(fs: readonly F[]): F[] => fs.map((f) => ('value' in f ? { ...f, value: value(f.value as Json) } : f));
  let out: ApiRequest;
  switch (request.kind) {
    case 'rpc':
      out = { ...request, args: row(request.args) };
      break;
    case 'select':
    case 'delete':
      out = { ...request, filters: filters(request.filters) } as ApiRequest;
      break;
    case 'update':
      out = { ...request, filters: filters(request.filters) } as ApiRequest;
      break;
    case 'insert':
      return undefined;
  }
  return changed ? out : undefined;
}

/**
 * The case with its world's copy in a second tenant, and each of its steps that names a row of the
 * world sent again naming the copy's row (appended). The same case when nothing is copied.
 */
export function withSecondTenant(testCase: DataCase, copied: (table: string) => boolean, keysOf: KeysOf): DataCase {
  if (holdsSecondTenant(testCase.world)) return testCase;
  const { copy, renaming } = secondTenantCopy(testCase.world, copied, keysOf);
  if (!Object.keys(copy).length) return testCase;
  const twins = testCase.steps.flatMap((s): DataStep[] => {
    // A caller stays in their tenant: only the rows the step names move to the other.
    const request = renamedRequest(s.request, renaming);
    return request ? [appendedStep({ ...s, request })] : [];
  });
  return { ...testCase, world: joined(testCase.world, copy), steps: [...testCase.steps, ...twins] };
}

/** The model's key columns of each table (`id` where it has none: auth.users). */
export function modelKeys(oracle: ModelTables): KeysOf {
  let keys = keysCache.get(oracle.model);
  if (!keys) {
    const tables = oracle.model.tables;
    keys = (table: string) => tables[table]?.primaryKey ?? ['id'];
    keysCache.set(oracle.model, keys);
  }
  return keys;
}

const keysCache = new WeakMap<object, KeysOf>();

/** What the copy reads of an oracle: its tables' keys (not the Oracle type: pack.ts reaches the fixtures, which read this file). */
interface ModelTables {
  model: { tables: Readonly<Record<string, { primaryKey: readonly string[] } | undefined>> };
}

/** What a second tenant needs of a fixture plan (fixtures.ts FixturePlan). */
export interface TenantPlan {
  shapes?: TableShapes;
  mapping?: TargetMapping;
  tenantColumn?: string;
}

/** The people's tables, copied whether or not they hold the tenant column: the copy's rows name its own people. */
const PEOPLE = ['auth.users', 'users'];

/**
 * The case as the run sends it to a multi-tenant target: its world with a copy in a second tenant
 * (withSecondTenant), its steps then their twins naming the copy. Unchanged without a tenant
 * column, for a model run (its steps are drawn as it runs), or with nothing to copy.
 */
export function secondTenantCase(plan: TenantPlan, oracle: ModelTables, testCase: DataCase): DataCase {
  const tenant = plan.shapes && tenantOf(plan.shapes, plan.tenantColumn);
  if (!tenant || modelRunOf(testCase)) return testCase;
  const shapes = plan.shapes!;
  const copied = (table: string) => PEOPLE.includes(table) || !!tenantColumnOf(shapes.get(plan.mapping ? targetTable(plan.mapping, table) : table), tenant);
  return withSecondTenant(testCase, copied, modelKeys(oracle));
}

/**
 * The world in the target's names (`toTarget`), the copy's rows naming the second tenant where they
 * hold the tenant column (the caller's are given the caller's tenant after: tenant-world.ts).
 */
export function worldOnTargetInTenants(plan: TenantPlan, world: World, toTarget: (w: World) => World): World {
  const tenant = plan.shapes && tenantOf(plan.shapes, plan.tenantColumn);
  if (!tenant || !holdsSecondTenant(world)) return toTarget(world);
  const { caller, second } = splitByTenant(world);
  return joined(toTarget(caller), worldInCallerTenant(toTarget(second), plan.shapes!, tenant, tenant.secondKey));
}
