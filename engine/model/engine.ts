/**
 * PostgreSQL row-security semantics applied to a table model, for the REST interface's four
 * table requests (spec §4.1, rules 5 and 6). The order of checks follows the server:
 * unknown body columns (PostgREST), unknown columns and unreadable literals (parse time),
 * pg-safeupdate (Supabase: an UPDATE or DELETE with no filter is refused with 21000 right after
 * parsing), then grants (executor start), then row rules, BEFORE triggers, WITH CHECK, then
 * constraints.
 */
import { apiRoleOf, callerUid, type Caller } from './caller.ts';
import { evaluateFilters } from './filters.ts';
import type { Json, Row } from './json.ts';
import {
  allowed,
  filtered,
  rejectedByGrant,
  rejectedByPolicy,
  sqlError,
  anyOf,
  orAlso,
  secureReading,
  type Outcome,
} from './outcome.ts';
import { ownerUpdateLeftUndone } from './owner-guard.ts';
import { selectedColumns, type ApiRequest, type Embed, type Filter } from './request.ts';
import { branch, unrecorded } from './branches.ts';
import { embedKey, foreignKeyEdge, resolveRelationship, sortRows, type ForeignKeyEdge, type Relationship } from './embed.ts';
import { afterDelete, type ForeignKeyAction } from './foreign-key-actions.ts';
import { column, columnGrantsOf, grantsOf, materialize, privilegesOf, secureRefusalsOf, type ColumnSpec, type Privilege, type RuleContext, type TableModel } from './table-model.ts';
import { coerce, jsonEqual } from './values.ts';
import { rowsOf, withRows, type World } from './world.ts';

// In its own file: function models return one too, and engine.ts reads function models.
export type { Prediction } from './prediction.ts';
import type { Prediction } from './prediction.ts';

type TableRequest = Exclude<ApiRequest, { kind: 'rpc' }>;

/**
 * The engine's own decisions as model branches (branches.ts), unprefixed: a pack counts one
 * under a property by declaring `<property>.<id>` (R16 declares `R16.grant.table.denied`).
 */
function tableGrant(granted: boolean): boolean {
  branch(granted ? 'grant.table.granted' : 'grant.table.denied');
  return granted;
}

/** Whether the caller's role (an API role, or the project's own: Caller.role) holds `privilege` on the table. */
function hasPrivilege(model: TableModel, caller: Caller, privilege: Privilege, settings: unknown): boolean {
  return privilegesOf(grantsOf(model, settings), apiRoleOf(caller)).includes(privilege);
}

/**
 * SELECT on these columns: table-level SELECT, or a column-level grant on each of them
 * (Postgres checks the columns a statement reads: `t.*` expands to every column).
 */
function canSelect(model: TableModel, caller: Caller, columns: readonly string[], settings: unknown): boolean {
  const role = apiRoleOf(caller);
  const grants = grantsOf(model, settings);
  if (role === 'service_role') return columns.length === 0 || privilegesOf(grants, role).includes('select');
  if (columns.length === 0) return true;
  if (privilegesOf(grants, role).includes('select')) return true;
  const granted = columnGrantsOf(grants, role, 'columnSelect');
  return granted !== undefined && columns.every((c) => granted.includes(c));
}

/**
 * A write of these columns: table-level UPDATE/INSERT, or a column-level grant on each of them
 * (UPDATE: a PATCH's SET list; INSERT: the body's keys).
 */
function canWriteColumns(model: TableModel, caller: Caller, privilege: 'update' | 'insert', columns: readonly string[], settings: unknown): boolean {
  const role = apiRoleOf(caller);
  if (hasPrivilege(model, caller, privilege, settings)) return true;
  if (role === 'service_role') return false;
  const granted = columnGrantsOf(grantsOf(model, settings), role, privilege === 'update' ? 'columnUpdate' : 'columnInsert');
  return granted !== undefined && columns.every((c) => granted.includes(c));
}

function allColumns(model: TableModel, columns: string[] | '*'): string[] {
  return columns === '*' ? model.columns.map((c) => c.name) : columns;
}

/**
 * The columns a write's RETURNING reads under return=representation or headers-only: its `select=` and the
 * primary key (PostgREST v12.2 Plan.hs inferColsEmbedNeeds: `fldNames ++ fkCols ++ pkCols`, or
 * `*` when the select names it); none under return=minimal (`RETURNING 1`).
 */
function returningColumns(model: TableModel, request: Extract<TableRequest, { returning: unknown }>): string[] {
  if (request.returning === 'minimal') return [];
  const selected = selectedColumns(request);
  return selected === '*' ? allColumns(model, '*') : [...new Set([...selected, ...model.primaryKey])];
}

function bypassesRowSecurity(model: TableModel, caller: Caller): boolean {
  return caller.kind === 'service' || !model.rowSecurity;
}

function project(row: Row, columns: string[] | '*', model: TableModel, settings: unknown): Row {
  const names = columns === '*' ? model.columns.map((c) => c.name) : columns;
  const full = materialize(model, row, settings);
  const out: Row = {};
  for (const n of names) out[n] = full[n] ?? null;
  return out;
}

/**
 * Parse-time checks: every named column exists, every filter literal reads as its column's type.
 * An empty PATCH's statement carries no filter (emptyPatch), so its filters are not checked.
 */
function parseErrors(model: TableModel, request: TableRequest): Outcome | undefined {
  const named: string[] = [];
  const filters = request.kind === 'update' && Object.keys(request.patch).length === 0 ? [] : 'filters' in request ? request.filters : [];
  named.push(...filters.map((f) => f.column));
  const selected = selectedColumns(request);
  if (selected !== '*') named.push(...selected);
  if (request.kind === 'select') named.push(...(request.order ?? []).map((t) => t.column));
  for (const n of named) if (!column(model, n)) return sqlError('42703', `column ${n} does not exist`);
  {
    for (const f of filters) {
      const type = column(model, f.column)!.type;
      if (f.op === 'like' || f.op === 'ilike' || f.op === 'is') continue;
      const values = f.op === 'in' && Array.isArray(f.value) ? f.value : [f.value];
      for (const v of values) {
        const c = coerce(v, type);
        if (!c.ok) return sqlError(c.code, `${f.column}=${f.op}.${JSON.stringify(f.value)}`);
      }
    }
  }
  return undefined;
}

function matching(model: TableModel, rows: Row[], filters: Filter[], settings: unknown): Row[] {
  // The filters' columns looked up once, not for every row.
  const named = new Map(filters.map((f) => [f.column, column(model, f.column)]));
  const typeOf = (c: string) => named.get(c)?.type;
  // A filter reads only its own column: a generated one's value is computed only when a filter names it.
  const readsGenerated = [...named.values()].some((c) => c?.generated !== undefined);
  return rows.filter((row) => {
    const v = evaluateFilters(readsGenerated ? materialize(model, row, settings) : row, filters, typeOf);
    return v.ok && v.matches;
  });
}

function context(world: World, caller: Caller, settings: unknown): RuleContext {
  return { world, caller, uid: callerUid(caller), settings };
}

/** pg-safeupdate, which Supabase loads for PostgREST's role: a PATCH or DELETE must carry a filter. */
function safeUpdateRefusal(command: 'UPDATE' | 'DELETE', filters: Filter[]): Outcome | undefined {
  return filters.length === 0 ? sqlError('21000', `${command} requires a WHERE clause`) : undefined;
}

function unknownBodyColumn(model: TableModel, body: Row): Outcome | undefined {
  const k = Object.keys(body).find((name) => !column(model, name));
  return k === undefined ? undefined : sqlError('PGRST204', `column ${k} not found`);
}

/** Values from a JSON body, read into column types: unknown column → PGRST204, unreadable → 22P02. */
function readBody(model: TableModel, body: Row): { ok: true; row: Row } | { ok: false; outcome: Outcome } {
  const row: Row = {};
  for (const k of Object.keys(body)) {
    if (!column(model, k)) return { ok: false, outcome: sqlError('PGRST204', `column ${k} not found`) };
  }
  for (const k of Object.keys(body)) {
    // Refused when the statement is rewritten, before any value is read.
    if (column(model, k)!.generated) return { ok: false, outcome: sqlError('428C9', `column ${k} is generated`) };
  }
  for (const [k, v] of Object.entries(body)) {
    const col = column(model, k);
    if (!col) return { ok: false, outcome: sqlError('PGRST204', `column ${k} not found`) };
    const c = coerce(v, col.type);
    if (!c.ok) return { ok: false, outcome: sqlError(c.code, `${k}: ${JSON.stringify(v)}`) };
    row[k] = c.value;
  }
  return { ok: true, row };
}

/**
 * Secure reading: a row a column's CHECK refuses (a value the spec's column cannot hold, remarks
 * that are no array) refused first by a policy the model's rules pass it through. Postgres checks
 * the policies before the constraints, so which refuses is the target's choice; neither stores it.
 */
export const POLICY_REFUSES_UNSTORABLE_ROW = 'policy-refuses-unstorable-row';

/** A CHECK's refusal of a row the policies passed, or the policy's refusal of it (POLICY_REFUSES_UNSTORABLE_ROW). */
function orRefusedByPolicy(violation: Outcome, detail: string): Outcome {
  return violation.kind === 'error' && violation.code === '23514' ? orAlso(violation, [secureReading(POLICY_REFUSES_UNSTORABLE_ROW, rejectedByPolicy(detail))]) : violation;
}

function constraintViolation(model: TableModel, row: Row, settings: unknown): Outcome | undefined {
  // Postgres checks every NOT NULL before any CHECK constraint (ExecConstraints).
  for (const col of model.columns) {
    if (col.generated) continue;
    const v = row[col.name] ?? null;
    if (v === null && !col.nullable && !col.serverAssigned) return sqlError('23502', `${col.name} is null`);
  }
  for (const col of model.columns) {
    if (col.generated) continue;
    const v = row[col.name] ?? null;
    if (v !== null && col.check && !col.check(v, settings)) return orAlso(sqlError('23514', `${col.name} check`), col.checkRefusal ? [col.checkRefusal(settings)] : []);
  }
  return undefined;
}

/**
 * The refusals a project enforcing a column's limit in a BEFORE trigger would raise for this
 * row (ColumnSpec.checkRefusal): answers as correct as any failure the row meets from its
 * triggers on.
 */
function limitRefusals(model: TableModel, row: Row, settings: unknown): Outcome[] {
  return model.columns.filter((c) => c.checkRefusal && c.check && !c.generated && (row[c.name] ?? null) !== null && !c.check(row[c.name] ?? null, settings)).map((c) => c.checkRefusal!(settings));
}

function predictSelect(model: TableModel, world: World, caller: Caller, request: Extract<TableRequest, { kind: 'select' }>, settings: unknown, tables: Tables, maxRows?: number): Outcome {
  const embeds: ResolvedEmbed[] = [];
  for (const embed of request.embeds ?? []) {
    const resolved = resolveEmbed(model, embed, tables);
    if ('outcome' in resolved) return resolved.outcome;
    embeds.push(resolved);
  }
  const read = [...allColumns(model, request.columns), ...request.filters.map((f) => f.column), ...(request.order ?? []).map((t) => t.column), ...embeds.flatMap((e) => e.relationship.parentColumns)];
  if (!tableGrant(canSelect(model, caller, read, settings))) return rejectedByGrant(`select on ${model.table}`);
  // Postgres checks every table of the statement at executor start: an embedded one too, and a junction it joins through.
  for (const e of embeds) {
    if (!canSelect(e.model, caller, [...allColumns(e.model, e.embed.columns), ...e.relationship.embeddedColumns, ...(e.embed.order ?? []).map((t) => t.column)], settings)) return rejectedByGrant(`select on ${e.model.table} (embedded)`);
    const j = e.relationship.junction;
    if (j && !canSelect(e.junction!, caller, [...j.columns, ...j.targetColumns], settings)) return rejectedByGrant(`select on ${j.table} (junction of ${e.model.table})`);
  }
  const ctx = context(world, caller, settings);
  const all = matching(model, visibleSource(model, world, settings), request.filters, settings);
  const readable = bypassesRowSecurity(model, caller) ? all : all.filter((r) => model.rules.select?.(r, ctx) ?? false);
  // A top-level order= (compared in order, ties in any: check-case.ts maskedColumns); none: a multiset.
  const visible = request.order?.length ? sortRows(readable.map((r) => materialize(model, r, settings)), request.order) : readable;
  const rows: Row[] = [];
  for (const parent of visible) {
    const row = project(parent, request.columns, model, settings);
    let kept = true;
    for (const e of embeds) {
      const value = embeddedValue(e, materialize(model, parent, settings), world, caller, settings);
      if (e.embed.inner && (value === null || (Array.isArray(value) && value.length === 0))) kept = false;
      row[embedKey(e.embed)] = value;
    }
    if (kept) rows.push(row);
  }
  // PostgREST counts a single object's rows in the page db-max-rows limited (Query.hs
  // failNotSingular reads page_total, count(_postgrest_t) over the LIMITed read): with a cap of
  // 1, two rows are one (any one of them: predict.ts maxRowsCap).
  const page = maxRows === undefined ? rows.length : Math.min(rows.length, maxRows);
  if (request.single && page !== 1) return sqlError('PGRST116', `${page} rows`);
  if (rows.length === 0 && all.length > 0) return filtered([]);
  return allowed(rows, rows.length);
}

type Tables = Record<string, TableModel>;
interface ResolvedEmbed {
  embed: Embed;
  model: TableModel;
  relationship: Relationship;
  /** The junction's model, for a many-to-many embed. */
  junction?: TableModel;
}

function visibleSource(model: TableModel, world: World, settings: unknown): Row[] {
  return model.view ? model.view(world, settings) : rowsOf(world, model.table);
}

/** Per set of table models: their foreign keys as edges (embed.ts), listed once, not for every embed of every read. */
const foreignKeyEdges = new WeakMap<Tables, ForeignKeyEdge[]>();

function edgesOf(tables: Tables): readonly ForeignKeyEdge[] {
  let edges = foreignKeyEdges.get(tables);
  if (!edges) {
    edges = Object.values(tables).flatMap((t) => (t.foreignKeys ?? []).map((fk) => foreignKeyEdge(t.table, fk, [t.primaryKey, ...(t.uniqueKeys ?? [])])));
    foreignKeyEdges.set(tables, edges);
  }
  return edges;
}

/** The model table an embed reads (its target may be a key's column or carry a hint), or undefined when none does. */
export function embeddedTableOf(tables: Tables, parent: string, embed: Embed): string | undefined {
  const relationship = resolveRelationship(edgesOf(tables), parent, embed.table, embed.hint);
  return 'code' in relationship ? undefined : relationship.table;
}

/** An embed's table and relationship from the model's foreign keys (embed.ts), or PostgREST's refusal. */
function resolveEmbed(parent: TableModel, embed: Embed, tables: Tables): ResolvedEmbed | { outcome: Outcome } {
  const relationship = resolveRelationship(edgesOf(tables), parent.table, embed.table, embed.hint);
  if ('code' in relationship) return { outcome: sqlError(relationship.code, `embedding ${embed.table}${embed.hint ? `!${embed.hint}` : ''} in ${parent.table}`) };
  const model = tables[relationship.table];
  const named = [...(embed.columns === '*' ? [] : embed.columns), ...(embed.order ?? []).map((t) => t.column)];
  for (const c of named) if (!column(model, c)) return { outcome: sqlError('42703', `column ${model.table}.${c} does not exist`) };
  return { embed, model, relationship, ...(relationship.junction ? { junction: tables[relationship.junction.table] } : {}) };
}

/** Does `row` pair with `parent`, `rowColumns[i]` against `parentColumns[i]`? A null in the key pairs with nothing (`=` is not true). */
function pairs(parentColumns: readonly string[], parent: Row, rowColumns: readonly string[], row: Row): boolean {
  return parentColumns.every((p, i) => {
    const key = parent[p] ?? null;
    return key !== null && jsonEqual(row[rowColumns[i]] ?? null, key);
  });
}

/**
 * A parent row's embed: the embedded table's rows the caller may read (its own row rules: the
 * LATERAL subquery runs under the caller's role) that the foreign key pairs with the parent: an
 * array (in the embed's `order=`; without one PostgREST promises no order: compared as a
 * multiset, check-case.ts maskedColumns) or, to-one, the row or null.
 */
function embeddedValue(e: ResolvedEmbed, parent: Row, world: World, caller: Caller, settings: unknown): Json {
  const ctx = context(world, caller, settings);
  const rel = e.relationship;
  const readableOf = (model: TableModel, rows: Row[]) => (bypassesRowSecurity(model, caller) ? rows : rows.filter((r) => model.rules.select?.(r, ctx) ?? false));
  const source = visibleSource(e.model, world, settings);
  let readable: Row[];
  if (rel.junction && e.junction) {
    // Many-to-many (QueryBuilder.hs fromF: `FROM tags, note_tags WHERE tags.id = note_tags.tag_id AND note_tags.note_id = notes.id`):
    // a plain join, so each junction row the caller reads pairs with each embedded row it reads, duplicates kept.
    const j = rel.junction;
    const links = readableOf(e.junction, visibleSource(e.junction, world, settings).filter((r) => pairs(rel.parentColumns, parent, j.columns, materialize(e.junction!, r, settings))));
    const targets = readableOf(e.model, source);
    readable = links.flatMap((link) => targets.filter((t) => pairs(j.targetColumns, materialize(e.junction!, link, settings), rel.embeddedColumns, materialize(e.model, t, settings))));
  } else {
    readable = readableOf(e.model, source.filter((r) => pairs(rel.parentColumns, parent, rel.embeddedColumns, materialize(e.model, r, settings))));
  }
  const ordered = e.embed.order?.length ? sortRows(readable.map((r) => materialize(e.model, r, settings)), e.embed.order) : readable;
  const rows = ordered.map((r) => project(r, e.embed.columns, e.model, settings));
  return e.relationship.toOne ? (rows[0] ?? null) : rows;
}

/**
 * An insert, or an upsert (`Prefer: resolution=…`: INSERT … ON CONFLICT (key) DO UPDATE SET
 * c = EXCLUDED.c for each body column | DO NOTHING), as Postgres 17 runs it row by row in body
 * order (nodeModifyTable.c ExecInsert, ExecOnConflictUpdate; rowsecurity.c):
 * - privileges at executor start: INSERT; for a merge UPDATE too (even when nothing conflicts);
 *   SELECT on the conflict columns (the arbiter inference reads them) and on RETURNING's;
 * - each proposed row: BEFORE INSERT triggers, the INSERT WITH CHECK, and (an upsert always
 *   needs SELECT, so rowsecurity.c adds them) the SELECT rules as a check, then NOT NULL and
 *   CHECK constraints: all before the conflict is looked for, so a skipped duplicate has run
 *   its BEFORE INSERT triggers;
 * - a conflict under DO NOTHING skips the row (nothing returned for it);
 * - a conflict under DO UPDATE: the existing row must pass the UPDATE USING and the SELECT rules,
 *   else 42501 "new row violates row-level security policy (USING expression)"; then the row with
 *   the body's columns taken from the proposed row (EXCLUDED, after its triggers) goes through
 *   BEFORE UPDATE triggers, the UPDATE WITH CHECK and the SELECT rules, and the constraints; a
 *   row this statement already inserted or updated cannot be updated again (21000).
 * The model knows one unique key, the primary key: an upsert on other columns is refused by
 * Postgres (42P10) unless the target has such a unique index, which the model cannot know, so
 * it is not predicted (the generators name the primary key or nothing).
 */
function predictInsert(model: TableModel, world: World, caller: Caller, request: Extract<TableRequest, { kind: 'insert' }>, settings: unknown): Prediction {
  const unchanged = (outcome: Outcome): Prediction => ({ outcome, world });
  // RETURNING reads the new rows (representation, headers-only); only representation answers them.
  const readsBack = request.returning !== 'minimal';
  const representation = request.returning === 'representation';
  const bodies: Row[] = [];
  for (const body of request.rows) {
    const read = readBody(model, body);
    if (!read.ok) return unchanged(read.outcome);
    bodies.push(read.row);
  }
  // PostgREST inserts the union of the body keys: a key missing from one row is inserted as null
  // there, or, under `Prefer: missing=default`, as the column's default (as if the body omitted it).
  const keys = [...new Set(request.rows.flatMap((r) => Object.keys(r)))];
  const missingValue = (col: ColumnSpec) => (request.missing === 'default' ? (col.default ?? null) : null);
  const conflictColumns = request.upsert ? (request.upsert.onConflict ?? model.primaryKey) : [];
  for (const c of conflictColumns) if (!column(model, c)) return unchanged(sqlError('42703', `column ${c} does not exist`));
  // A merge of a body naming no column is DO NOTHING (QueryBuilder.hs: `if null iCols then "DO NOTHING"`).
  const resolution = !request.upsert || conflictColumns.length === 0 ? undefined : request.upsert.resolution === 'merge-duplicates' && keys.length ? 'merge' : 'ignore';
  if (
    !tableGrant(
      canWriteColumns(model, caller, 'insert', keys, settings) &&
        (resolution !== 'merge' || hasPrivilege(model, caller, 'update', settings)) &&
        canSelect(model, caller, [...conflictColumns, ...returningColumns(model, request)], settings),
    )
  ) {
    return unchanged(rejectedByGrant(`insert on ${model.table}`));
  }
  const ctx = context(world, caller, settings);
  const bypass = bypassesRowSecurity(model, caller);
  const sameKey = (a: Row, b: Row, cols: string[]) => cols.every((k) => a[k] !== null && a[k] !== undefined && a[k] === b[k]);
  let rows = rowsOf(world, model.table);
  const written: Row[] = [];
  const touched = new Set<Row>();
  for (const body of bodies) {
    let row: Row = {};
    for (const col of model.columns) if (!col.generated) row[col.name] = body[col.name] !== undefined ? body[col.name] : keys.includes(col.name) ? missingValue(col) : (col.default ?? null);
    const limits = limitRefusals(model, row, settings);
    const refused = (o: Outcome) => unchanged(orAlso(o, limits));
    if (model.beforeInsert) {
      const r = model.beforeInsert(row, ctx);
      if ('reject' in r) return refused(r.reject);
      row = r.row;
    }
    if (!bypass) {
      if (!(model.rules.insertCheck?.(row, ctx) ?? false)) return refused(rejectedByPolicy(`insert check on ${model.table}`));
      const readBack = readsBack || resolution;
      // Rule 5's paths: a read-back the SELECT rules refuse fails the insert; unread, the row is
      // not checked (Postgres does not ask, so neither do the rules' own branches).
      const selectable = readBack ? (model.rules.select?.(row, ctx) ?? false) : unrecorded(() => model.rules.select?.(row, ctx) ?? false);
      branch(readBack ? (selectable ? 'insert.read-back.selectable' : 'insert.read-back.not-selectable') : selectable ? 'insert.unread' : 'insert.unread.not-selectable');
      if (readBack && !selectable) return refused(rejectedByPolicy(`inserted row not selectable on ${model.table}`));
    }
    const violation = constraintViolation(model, row, settings);
    if (violation) return refused(bypass ? violation : orRefusedByPolicy(violation, `insert check on ${model.table}`));
    const conflicting = resolution ? rows.find((existing) => sameKey(row, existing, conflictColumns)) : undefined;
    if (!conflicting) {
      const duplicate = rows.some((existing) => sameKey(row, existing, model.primaryKey));
      if (duplicate) return unchanged(sqlError('23505', `duplicate key on ${model.table}`));
      rows = [...rows, row];
      written.push(row);
      touched.add(row);
      continue;
    }
    branch(resolution === 'ignore' ? 'upsert.conflict.ignored' : 'upsert.conflict.merged');
    if (resolution === 'ignore') continue;
    if (touched.has(conflicting)) return unchanged(sqlError('21000', 'ON CONFLICT DO UPDATE command cannot affect row a second time'));
    if (!bypass && !((model.rules.updateUsing?.(conflicting, ctx) ?? false) && (model.rules.select?.(conflicting, ctx) ?? false))) {
      return unchanged(rejectedByPolicy(`upsert: the conflicting row fails the UPDATE USING on ${model.table} (USING expression)`));
    }
    let next: Row = { ...conflicting };
    for (const k of keys) next[k] = row[k] ?? null;
    const updateLimits = limitRefusals(model, next, settings);
    const refusedUpdate = (o: Outcome) => unchanged(orAlso(o, updateLimits));
    if (model.beforeUpdate) {
      const r = model.beforeUpdate(conflicting, next, ctx);
      if ('reject' in r) return refusedUpdate(r.reject);
      next = r.row;
    }
    if (!bypass) {
      if (!((model.rules.updateCheck ?? model.rules.updateUsing)?.(next, ctx) ?? false)) return refusedUpdate(rejectedByPolicy(`upsert: update check on ${model.table}`));
      if (!(model.rules.select?.(next, ctx) ?? false)) return refusedUpdate(rejectedByPolicy(`upsert: updated row leaves the select scope on ${model.table}`));
    }
    const broken = constraintViolation(model, next, settings);
    if (broken) return refusedUpdate(broken);
    if (rows.some((other) => other !== conflicting && sameKey(next, other, model.primaryKey))) return unchanged(sqlError('23505', `duplicate key on ${model.table}`));
    rows = rows.map((r) => (r === conflicting ? next : r));
    written.push(next);
    touched.add(next);
  }
  return { outcome: allowed(representation ? written.map((r) => project(r, selectedColumns(request), model, settings)) : null, written.length), world: withRows(world, model.table, rows) };
}

function predictUpdate(model: TableModel, world: World, caller: Caller, request: Extract<TableRequest, { kind: 'update' }>, settings: unknown): Prediction {
  const unchanged = (outcome: Outcome): Prediction => ({ outcome, world });
  const representation = request.returning === 'representation';
  const readsBack = request.returning !== 'minimal';
  if (Object.keys(request.patch).length === 0) return unchanged(emptyPatch(model, caller, request, settings));
  const refused = unknownBodyColumn(model, request.patch) ?? safeUpdateRefusal('UPDATE', request.filters);
  if (refused) return unchanged(refused);
  const read = readBody(model, request.patch);
  if (!read.ok) return unchanged(read.outcome);
  // Reading existing rows (a WHERE on their columns) or returning them needs SELECT on those columns as well.
  const readsRows = request.filters.length > 0 || readsBack;
  if (!tableGrant(canWriteColumns(model, caller, 'update', Object.keys(request.patch), settings) && canSelect(model, caller, [...request.filters.map((f) => f.column), ...returningColumns(model, request)], settings))) {
    return unchanged(rejectedByGrant(`update on ${model.table}`));
  }
  const ctx = context(world, caller, settings);
  const bypass = bypassesRowSecurity(model, caller);
  const all = rowsOf(world, model.table);
  const candidates = matching(model, all, request.filters, settings);
  const targets = bypass
    ? candidates
    : candidates.filter((r) => (model.rules.updateUsing?.(r, ctx) ?? false) && (!readsRows || (model.rules.select?.(r, ctx) ?? false)));
  // Rows kept out whose refusal a project's trigger may raise instead (the trigger meets them first: any may answer).
  // Only a table with such a guard looks for them (targets.includes is quadratic; every other UPDATE skips it).
  const guard = bypass ? undefined : model.rules.updateRefusableByGuard;
  const guardRefusals = guard ? candidates.filter((r) => !targets.includes(r)).flatMap((r) => guard(r, ctx) ?? []) : [];
  if (targets.length === 0) {
    if (!candidates.length) return unchanged(allowed(representation ? [] : null, 0));
    const none: Outcome = filtered(representation ? [] : null);
    return unchanged(guardRefusals.length ? { ...none, orElse: guardRefusals } : none);
  }
  const replaced = new Map<Row, Row>();
  // Postgres stops at the first row that fails, and the order it visits rows in is the plan's
  // (heap or index order, which can change with statistics): any failing row's error may be
  // the answer, so every one of them is an acceptable prediction.
  const failures: Outcome[] = [];
  let undoneIsSecure = true;
  // A guard refusing an exemption the spec does not require (TriggerResult.refusalIsSecure): as secure as passing.
  const secureRefusals: Outcome[] = [];
  for (const old of targets) {
    let next: Row = { ...old, ...read.row };
    const limits = limitRefusals(model, next, settings);
    // The guard raising in place of what follows it (a BEFORE trigger runs before the policy's check and the constraints).
    let secure: Outcome[] = [];
    const fail = (o: Outcome) => failures.push(orAlso(o, [...limits, ...secure]));
    if (model.beforeUpdate) {
      const r = model.beforeUpdate(old, next, ctx);
      if ('reject' in r) {
        fail(r.reject);
        continue;
      }
      next = r.row;
      undoneIsSecure &&= r.undoneIsSecure === true;
      // Named by the guard that made it, else by its table: every secure acceptance is counted by name.
      secure = secureRefusalsOf(r).map((o) => (o.reading ? o : secureReading(`${model.table}.guard-refusal`, o)));
      // Each once: every row the guard passes alike gives the same refusal.
      for (const refusal of secure) if (!secureRefusals.some((known) => jsonEqual(known as Json, refusal as Json))) secureRefusals.push(refusal);
    } else undoneIsSecure = false;
    if (!bypass) {
      // An UPDATE policy without WITH CHECK checks the new row with its USING (PostgreSQL's CREATE POLICY).
      if (!((model.rules.updateCheck ?? model.rules.updateUsing)?.(next, ctx) ?? false)) {
        const byGuard = model.rules.updateRefusableByGuard?.(next, ctx);
        fail(orAlso(rejectedByPolicy(`update check on ${model.table}`), byGuard ? [byGuard] : []));
        continue;
      }
      if (readsRows && !(model.rules.select?.(next, ctx) ?? false)) {
        fail(rejectedByPolicy(`updated row leaves the select scope on ${model.table}`));
        continue;
      }
    }
    const violation = constraintViolation(model, next, settings);
    if (violation) {
      fail(bypass ? violation : orRefusedByPolicy(violation, `update check on ${model.table}`));
      continue;
    }
    replaced.set(old, next);
  }
  const rows = all.map((r) => replaced.get(r) ?? r);
  // The primary key's unique index, checked when each new row version is stored (after CHECKs).
  for (const next of replaced.values()) {
    if (rows.some((other) => other !== next && model.primaryKey.every((k) => next[k] !== null && other[k] === next[k]))) {
      failures.push(sqlError('23505', `duplicate key on ${model.table}`));
      break;
    }
  }
  if (failures.length) return unchanged(anyOf([...failures, ...guardRefusals]));
  const returned = representation ? [...replaced.values()].map((r) => project(r, selectedColumns(request), model, settings)) : null;
  const alternatives = [...guardRefusals, ...secureRefusals];
  const outcome: Outcome = alternatives.length ? { ...allowed(returned, replaced.size), orElse: alternatives } : allowed(returned, replaced.size);
  // Every row an owner's that owners cannot update: left undone by row security is as secure.
  if (undoneIsSecure) {
    const undone = [filtered(representation ? [] : null), rejectedByPolicy(`owners cannot update ${model.table}`)].map((o) => secureReading(ownerUpdateLeftUndone(model.table), o));
    return { outcome: { ...outcome, orElse: [...(outcome.orElse ?? []), ...undone] } as Outcome, world: withRows(world, model.table, rows) };
  }
  return { outcome, world: withRows(world, model.table, rows) };
}

/**
 * A PATCH with an empty body: PostgREST v12.2 runs no UPDATE but `SELECT <RETURNING columns, or
 * NULL> FROM t WHERE false` (QueryBuilder.hs mutatePlanToQuery Update, `null uCols`): the filters
 * are not in it, no UPDATE privilege is needed, and no row is touched or answered. Reading the
 * table needs SELECT on the columns named, or, naming none (return=minimal), on any column.
 */
function emptyPatch(model: TableModel, caller: Caller, request: Extract<TableRequest, { kind: 'update' }>, settings: unknown): Outcome {
  const named = returningColumns(model, request);
  const role = apiRoleOf(caller);
  const grants = grantsOf(model, settings);
  const readable = named.length ? canSelect(model, caller, named, settings) : role === 'service_role' || privilegesOf(grants, role).includes('select') || columnGrantsOf(grants, role, 'columnSelect') !== undefined;
  if (!tableGrant(readable)) return rejectedByGrant(`select on ${model.table}`);
  return allowed(request.returning === 'representation' ? [] : null, 0);
}

function predictDelete(model: TableModel, world: World, caller: Caller, request: Extract<TableRequest, { kind: 'delete' }>, settings: unknown, foreignKeyActions: readonly ForeignKeyAction[]): Prediction {
  const unchanged = (outcome: Outcome): Prediction => ({ outcome, world });
  const representation = request.returning === 'representation';
  const refused = safeUpdateRefusal('DELETE', request.filters);
  if (refused) return unchanged(refused);
  const readsRows = request.filters.length > 0 || request.returning !== 'minimal';
  if (!tableGrant(hasPrivilege(model, caller, 'delete', settings) && canSelect(model, caller, [...request.filters.map((f) => f.column), ...returningColumns(model, request)], settings))) {
    return unchanged(rejectedByGrant(`delete on ${model.table}`));
  }
  const ctx = context(world, caller, settings);
  const all = rowsOf(world, model.table);
  const candidates = matching(model, all, request.filters, settings);
  const targets = bypassesRowSecurity(model, caller)
    ? candidates
    : candidates.filter((r) => (model.rules.deleteUsing?.(r, ctx) ?? false) && (!readsRows || (model.rules.select?.(r, ctx) ?? false)));
  if (targets.length === 0) return unchanged(candidates.length > 0 ? filtered(representation ? [] : null) : allowed(representation ? [] : null, 0));
  const gone = new Set(targets);
  // The rows referencing the deleted ones: cascaded, set null, or the DELETE refused (foreign-key-actions.ts).
  const after = afterDelete(withRows(world, model.table, all.filter((r) => !gone.has(r))), model.table, targets, foreignKeyActions);
  if ('violation' in after) {
    const { table, column, references } = after.violation;
    return unchanged(sqlError('23503', `delete on ${references} violates the foreign key ${table}.${column}`));
  }
  return { outcome: allowed(representation ? targets.map((r) => project(r, selectedColumns(request), model, settings)) : null, targets.length), world: after.world };
}

/**
 * `tables`: the pack's table models, for the tables a read embeds; `foreignKeyActions`: the
 * target's ON DELETE actions (model names), which a DELETE applies to the rows referencing it.
 */
export function predictTableRequest(model: TableModel, world: World, caller: Caller, request: TableRequest, settings: unknown, tables: Tables = {}, maxRows?: number, foreignKeyActions: readonly ForeignKeyAction[] = []): Prediction {
  const parseError = parseErrors(model, request);
  if (parseError) return { outcome: parseError, world };
  switch (request.kind) {
    case 'select':
      return { outcome: predictSelect(model, world, caller, request, settings, tables, maxRows), world };
    case 'insert':
      return singular(request, predictInsert(model, world, caller, request, settings), world);
    case 'update':
      return singular(request, predictUpdate(model, world, caller, request, settings), world);
    case 'delete':
      return singular(request, predictDelete(model, world, caller, request, settings, predictedActions(foreignKeyActions, tables)), world);
  }
}

/**
 * The ON DELETE actions the model predicts. SET NULL is an UPDATE of the child, which fires its
 * BEFORE UPDATE triggers: a guard the model states there may refuse it (as the caller: auth.uid()
 * is still theirs) or let it pass (reading current_user, the owner's during the action), so it is
 * not predicted on such a table: the row left behind drops the case, as before.
 */
function predictedActions(actions: readonly ForeignKeyAction[], tables: Tables): readonly ForeignKeyAction[] {
  return actions.some((a) => a.onDelete === 'set null' && tables[a.table]?.beforeUpdate) ? actions.filter((a) => a.onDelete !== 'set null' || !tables[a.table]?.beforeUpdate) : actions;
}

/**
 * A write sent for one object (`single`): a success that affected other than one row is 406
 * PGRST116 and the write is rolled back (PostgREST v12.2 Query.hs failNotSingular: `SQL.condemn`);
 * one row: that row as the answer. Alternatives (`orElse`) are judged the same way.
 */
function singular(request: Extract<TableRequest, { returning: unknown }>, prediction: Prediction, before: World): Prediction {
  const max = request.kind === 'insert' ? undefined : request.maxAffected;
  if (!request.single && max === undefined) return prediction;
  const outcome = writeAnswerShape(request, prediction.outcome);
  return { outcome, world: outcome.kind === 'allowed' ? prediction.world : before };
}

/**
 * A write's answer under `single` and `max-affected` (Query.hs: failNotSingular, then
 * failExceedsMaxAffectedPref (PGRST124), for PATCH and DELETE), alternatives included. Also what
 * a mapping's conventions add as alternatives (engine/mapping) goes through it.
 */
export function writeAnswerShape(request: ApiRequest, o: Outcome): Outcome {
  if (request.kind === 'rpc' || request.kind === 'select') return o;
  const max = request.kind === 'insert' ? undefined : request.maxAffected;
  const alternatives = 'orElse' in o && o.orElse ? o.orElse.map((a) => writeAnswerShape(request, a)) : [];
  // The success's alternatives (a trigger's refusal in place of a row left undone) stay alternatives of its 406.
  if (request.single && (o.kind === 'allowed' || o.kind === 'filtered') && o.affected !== 1) return orAlso(sqlError('PGRST116', `${o.affected} rows`), alternatives);
  if (max !== undefined && (o.kind === 'allowed' || o.kind === 'filtered') && o.affected > max) return orAlso(sqlError('PGRST124', `${o.affected} rows`), alternatives);
  return alternatives.length ? ({ ...o, orElse: alternatives } as Outcome) : o;
}

