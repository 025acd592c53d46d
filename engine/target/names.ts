/**
 * A model world and a model request in the target's names: tables and columns renamed (absent
 * ones dropped from fixtures, refused in requests), vocabularies translated, functions and their
 * arguments renamed. Part of engine/target/: the one place that makes a model case real on a target.
 */
import type { Json, Row } from '../model/json.ts';
import type { ApiRequest, Embed, Filter } from '../model/request.ts';
import { embedKey, type OrderTerm } from '../model/embed.ts';
import { targetName } from '../model/request.ts';
import type { World } from '../model/world.ts';
import { withAuthIdentity } from './auth-identity.ts';
import { argToTarget, embeddedModelTable, keptAsArrayOfOne, orderKeepsOnTarget, renameRow, rowToTarget, splitName, targetColumn, targetTable, UnmappableRequest, valueToTarget, type TargetMapping } from '../mapping/mapping.ts';

/** The fixture world in the target's tables and columns, with the rows written alongside (mapping `alsoWrite`). */
export function worldToTarget(m: TargetMapping, world: World): World {
  const out: World = {};
  for (const [table, rows] of Object.entries(world)) {
    for (const also of m.tables?.[table]?.alsoWrite ?? []) {
      const companions = rows.map((r) => Object.fromEntries(Object.entries(also.columns).map(([to, from]) => [to, valueToTarget(m, table, from, r[from] ?? null)])));
      out[also.table] = [...(out[also.table] ?? []), ...companions];
    }
    out[targetTable(m, table)] = withAuthIdentity(m, table, rows, rows.map((r) => rowToTarget(m, table, r)));
  }
  return out;
}

/** Fixture order (model names) as target names, each table's `alsoWrite` tables just before it. */
export function orderToTarget(m: TargetMapping, order: readonly string[]): string[] {
  return order.flatMap((t) => [...(m.tables?.[t]?.alsoWrite ?? []).map((a) => a.table), targetTable(m, t)]);
}

function requiredColumn(m: TargetMapping, table: string, column: string, where: string): string {
  const to = targetColumn(m, table, column);
  if (to === null) throw new UnmappableRequest(`${where} names ${table}.${column}, which the target does not have (mapping.tables.${table}.columns.${column} is null)`, `${table}.${column}`);
  return to;
}

/**
 * A table sent as SQL has no PostgREST around it: a single-object answer (406 PGRST116) and
 * max-affected (400 PGRST124) do not exist there, so such a request is left out of its case, counted.
 */
function refuseRestOnlyForms(request: Exclude<ApiRequest, { kind: 'rpc' }>, table: string): void {
  const form = request.single ? 'a single-object request (Accept: vnd.pgrst.object)' : 'maxAffected' in request && request.maxAffected !== undefined ? 'a max-affected write' : undefined;
  if (form) throw new UnmappableRequest(`${request.kind} of ${table} is ${form}, which only PostgREST answers; ${table} is sent as SQL`, undefined, `${form} of ${table}: REST only, the table is sent as SQL (mapping.tables.${table}.via)`);
}

/**
 * `order=` in the target's columns. A column whose values the target keeps in other words
 * (`values`, an enum's declaration order) or another id form (bigint ids sort by number, the
 * model's text ids by text) sorts otherwise there: such a read is left out, counted.
 */
function orderOnTarget(m: TargetMapping, table: string, order: readonly OrderTerm[], where: string): OrderTerm[] {
  return order.map((t) => {
    if (!orderKeepsOnTarget(m, table, t.column)) {
      throw new UnmappableRequest(`${where} orders by ${table}.${t.column}, whose values the target keeps in another form`, undefined, `orders by ${table}.${t.column}, kept in another form on the target (its order differs)`);
    }
    return { ...t, column: requiredColumn(m, table, t.column, where) };
  });
}

/**
 * An embed in the target's names, its key in the answer kept the model's (`users:profiles_v(*)`),
 * so the answer's embedded rows are found where the model puts them (mapping.ts reshapeRows).
 * Left out, counted: a `!hint` (a constraint's name is the model's own) and an embedded table in
 * another schema than its parent's (PostgREST embeds within one schema).
 */
function embedOnTarget(m: TargetMapping, parent: string, e: Embed, where: string): Embed {
  if (e.hint) throw new UnmappableRequest(`${where} embeds ${e.table} by the hint !${e.hint}, a name of the model's`, undefined, `embeds by a !hint on a mapped target (the hint names the model's constraint)`);
  const embedded = embeddedModelTable(m, parent, e);
  const ownWhere = `${where}'s embed ${embedKey(e)}`;
  let target: string;
  if (embedded === parent && e.table !== parent) target = requiredColumn(m, parent, e.table, where);
  else {
    const [parentOn, embeddedOn] = [splitName(targetTable(m, parent)), splitName(targetTable(m, embedded))];
    if ((parentOn.schema ?? 'public') !== (embeddedOn.schema ?? 'public')) {
      throw new UnmappableRequest(`${ownWhere}: ${embedded} is in another schema than ${parent} on the target`, undefined, `embeds ${embedded} in ${parent}, in two schemas on the target (PostgREST embeds within one)`);
    }
    target = embeddedOn.name;
  }
  const columns = Array.isArray(e.columns) ? e.columns.map((c) => requiredColumn(m, embedded, c, ownWhere)) : e.columns;
  const { hint: _hint, ...rest } = e;
  return {
    ...rest,
    table: target,
    columns,
    ...(target !== e.table ? { alias: embedKey(e) } : {}),
    ...(e.order ? { order: orderOnTarget(m, embedded, e.order, ownWhere) } : {}),
  };
}

/**
 * A filter's value as the target compares it. A column the target keeps as an array of one value
 * (mapping `arrayOfOne`) is compared otherwise there (`eq` on an array is the whole array): such
 * a filter is left out of its case, counted.
 */
function filterValueToTarget(m: TargetMapping, table: string, f: Filter, where: string): Json {
  if (keptAsArrayOfOne(m, table, f.column)) {
    throw new UnmappableRequest(`${where} filters on ${table}.${f.column}, which the target keeps as an array`, undefined, `filters on ${table}.${f.column}, kept as an array on the target (mapping.tables.${table}.arrayOfOne)`);
  }
  return valueToTarget(m, table, f.column, f.value);
}

/** A model request as the target's request. */
export function requestToTarget(m: TargetMapping, request: ApiRequest): ApiRequest {
  if (request.kind === 'rpc') {
    const model = targetName(request);
    const fn = m.functions?.[model];
    if (!fn) return request;
    const renamed = splitName(fn.name ?? model);
    const args: Record<string, Json> = {};
    for (const [k, v] of Object.entries(request.args)) args[fn.args?.[k] ?? k] = argToTarget(m, model, k, v);
    const { schema: _schema, ...rest } = request;
    return { ...rest, fn: renamed.name, ...(renamed.schema && renamed.schema !== 'public' ? { schema: renamed.schema } : {}), args };
  }
  const table = targetName(request);
  if (!m.tables?.[table]) return request;
  const where = `${request.kind} of ${table}`;
  const target = splitName(targetTable(m, table));
  const { schema: _schema, ...base } = request;
  const named = { ...base, table: target.name, ...(target.schema && target.schema !== 'public' ? { schema: target.schema } : {}) };
  if (m.tables[table].via === 'sql') refuseRestOnlyForms(named, table);
  const filter = (f: Filter): Filter => ({ ...f, column: requiredColumn(m, table, f.column, where), value: filterValueToTarget(m, table, f, where) });
  const body = (row: Row): Row => renameRow(row, (c) => requiredColumn(m, table, c, where), (c, v) => valueToTarget(m, table, c, v));
  const columns = <C extends string[] | '*' | undefined>(cs: C): C => (Array.isArray(cs) ? cs.map((c) => requiredColumn(m, table, c, where)) : cs) as C;
  switch (named.kind) {
    case 'select':
      return {
        ...named,
        columns: columns(named.columns),
        filters: named.filters.map(filter),
        ...(named.order ? { order: orderOnTarget(m, table, named.order, where) } : {}),
        ...(named.embeds ? { embeds: named.embeds.map((e) => embedOnTarget(m, table, e, where)) } : {}),
      };
    case 'insert':
      return {
        ...named,
        rows: named.rows.map(body),
        ...(named.columns ? { columns: columns(named.columns) } : {}),
        ...(named.upsert?.onConflict ? { upsert: { ...named.upsert, onConflict: columns(named.upsert.onConflict) } } : {}),
      };
    case 'update':
      return { ...named, patch: body(named.patch), filters: named.filters.map(filter), ...(named.columns ? { columns: columns(named.columns) } : {}) };
    case 'delete':
      return { ...named, filters: named.filters.map(filter), ...(named.columns ? { columns: columns(named.columns) } : {}) };
  }
}
