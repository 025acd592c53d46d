/**
 * Completes a model row for a schema that asks for more: every NOT NULL column without a
 * default that the row leaves out gets a value that satisfies the schema (a CHECK vocabulary's
 * first value, an enum's first label, a referenced row's key, a unique counter value).
 * Deterministic: the same world fills the same way.
 */
import type { Json, Row } from '../model/json.ts';
import type { World } from '../model/world.ts';
import { patternHolds, sampleMatching } from '../introspection/check-forms.ts';
import { NUMERIC_TYPE, TEXT_TYPE, unqualifiedType, type ColumnShape, type TableShapes } from '../introspection/table-shapes.ts';
import type { ColumnAgreement } from '../introspection/column-agreements.ts';
import { withAgreeingColumns, withKeysOfEveryRow } from './agreeing-columns.ts';
import { rangeLiteral } from './range-values.ts';

export class UnfillableColumn extends Error {
  constructor(
    message: string,
    readonly table: string,
  ) {
    super(message);
    this.name = 'UnfillableColumn';
  }
}

/**
 * A NOT NULL column a row written by the server (the fixtures) must carry: one without a default,
 * or whose default is the caller's (`default auth.uid()`, a tenant claim: null without a token).
 * Generated columns never: the target computes them.
 */
export function serverMustWrite(c: ColumnShape): boolean {
  return c.notNull && !c.generated && (!c.hasDefault || c.callerDefault === true);
}

function uuidFrom(n: number): string {
  const hex = n.toString(16).padStart(12, '0').slice(-12);
  return `00000000-0000-4000-8000-${hex}`;
}

export function valueFor(table: string, column: ColumnShape, n: number, world: World): Json {
  if (column.vocabulary) return column.vocabulary[0];
  if (column.enumLabels?.length) return column.enumLabels[0];
  if (column.references) {
    const target = world[column.references.table]?.[0]?.[column.references.column];
    if (target === undefined) throw new UnfillableColumn(`${table}.${column.name} references ${column.references.table}, which has no row in this case`, table);
    return target;
  }
  return scalarFor(table, column, n);
}

function scalarFor(table: string, column: ColumnShape, n: number): Json {
  const t = unqualifiedType(column.type);
  if (t.endsWith('[]')) return [];
  if (TEXT_TYPE.test(t)) return textFor(column, n);
  if (NUMERIC_TYPE.test(t)) return numberFor(column, n);
  if (t === 'boolean') return false;
  const range = rangeLiteral(t, n);
  if (range !== undefined) return range;
  if (t === 'uuid') return uuidFrom(n);
  if (/^(timestamp|date)/.test(t)) return '2026-01-01T00:00:00Z';
  if (/^(time)/.test(t)) return '00:00:00';
  if (t === 'json' || t === 'jsonb') return {};
  throw new UnfillableColumn(`${table}.${column.name} is NOT NULL without a default and of type ${column.type}, which policyfuzz cannot fill`, table);
}

/** Text a column's simple CHECKs accept (check-forms.ts): its format's sample, cut to its length cap, padded to its floor. */
function textFor(column: ColumnShape, n: number): string {
  let text = `pf-${column.name}-${n}`;
  let formatted = false;
  for (const check of column.checks ?? []) {
    const sample = check.kind === 'pattern' ? sampleMatching(check.pattern, n) : undefined;
    // A sample of `lower(col) ~ 'A…'` that lower-casing breaks is no sample.
    if (sample !== undefined && check.kind === 'pattern' && patternHolds(check, sample) !== false) [text, formatted] = [sample, true];
  }
  for (const check of column.checks ?? []) if (check.kind === 'maxLength') text = text.slice(-Math.max(1, check.max));
  // Padding would break a format's sample: with one, its sample's length stands (a floor it misses is the database's refusal, a named drop).
  for (const check of column.checks ?? []) if (!formatted && check.kind === 'minLength' && [...text].length < check.min) text = text.padEnd(check.min, '-');
  return text;
}

/** A number within a column's CHECK ranges: n where it fits, else the nearest bound. */
function numberFor(column: ColumnShape, n: number): number {
  let v = n;
  for (const check of column.checks ?? []) {
    if (check.kind !== 'range') continue;
    // A strict bound (`> 0`) moved past by one: the fill is a whole number.
    if (check.max !== undefined && (check.strict ? v >= check.max : v > check.max)) v = check.strict ? check.max - 1 : check.max;
    if (check.min !== undefined && (check.strict ? v <= check.min : v < check.min)) v = check.strict ? check.min + 1 : check.min;
  }
  return v;
}

/**
 * A parent row for a NOT NULL foreign key the case left without one: every NOT NULL column
 * without a default filled (its own references first, a few levels deep), and the referenced
 * column `key` too when the database would make it (an identity or serial key: the fixtures
 * write it, so the child can name it). Added to `world`.
 */
function createParent(table: string, key: string, world: World, shapes: TableShapes, counter: { n: number }, depth: number): boolean {
  const columns = shapes.get(table);
  if (!columns || depth > 3) return false;
  const row: Row = {};
  for (const c of columns) {
    if (c.generated || (c.name !== key && !serverMustWrite(c))) continue;
    if (c.references && world[c.references.table]?.[0] === undefined && !createParent(c.references.table, c.references.column, world, shapes, counter, depth + 1)) return false;
    row[c.name] = valueFor(table, c, counter.n++, world);
  }
  world[table] = [...(world[table] ?? []), row];
  return true;
}

/**
 * Rows of tables outside the model (`modelTables`, target names) that the world's rows name by a
 * value no row holds (a `departments` lookup seeded with other codes than the model draws): each
 * made with that key, its other NOT NULL columns filled. Written ON CONFLICT DO NOTHING, so a row
 * the migrations seeded keeps its own values; a model table's row is the world's to hold
 * (realizable.ts drops a world that lacks one). Without them the database refused the fixtures (23503).
 */
function lookupRows(world: World, shapes: TableShapes, modelTables: ReadonlySet<string>, counter: { n: number }): World {
  const made: World = {};
  // The keys each referenced column holds (the world's rows, then those made here), by their JSON.
  const heldKeys = new Map<string, Set<string>>();
  const heldOf = (table: string, column: string): Set<string> => {
    const at = `${table}\u0000${column}`;
    let held = heldKeys.get(at);
    if (!held) heldKeys.set(at, (held = new Set([...(world[table] ?? []), ...(made[table] ?? [])].flatMap((p) => (p[column] === undefined ? [] : [JSON.stringify(p[column])])))));
    return held;
  };
  for (const [table, rows] of Object.entries(world)) {
    if (!rows.length) continue;
    for (const c of shapes.get(table) ?? []) {
      const ref = c.references;
      // Never a person (auth.users): who exists is the case's to say.
      if (!ref || ref.table === table || ref.table === 'auth.users' || modelTables.has(ref.table) || !shapes.has(ref.table)) continue;
      for (const r of rows) {
        const v = r[c.name];
        const held = heldOf(ref.table, ref.column);
        if (v === undefined || v === null || held.has(JSON.stringify(v))) continue;
        const row: Row = { [ref.column]: v };
        try {
          for (const p of shapes.get(ref.table)!) if (p.name !== ref.column && serverMustWrite(p)) row[p.name] = valueFor(ref.table, p, counter.n++, { ...world, ...made });
        } catch (e) {
          if (e instanceof UnfillableColumn) continue;
          throw e;
        }
        (made[ref.table] ??= []).push(row);
        for (const [name, value] of Object.entries(row)) heldKeys.get(`${ref.table}\u0000${name}`)?.add(JSON.stringify(value));
      }
    }
  }
  return made;
}

/**
 * The world completed for the target's schema, and the parent tables it had to create (to be
 * written before everything else). `modelTables` (target names): with them, rows of tables outside
 * the model that the world names are made too (lookupRows), listed in `lookups`. `madeFirst`: parent
 * rows already made (the caller's tenant), which the world's rows and the parents made here name.
 */
export function fillWorldWithParents(world: World, shapes: TableShapes, modelTables?: ReadonlySet<string>, madeFirst: World = {}): { world: World; parents: string[]; lookups: string[] } {
  const counter = { n: 900 };
  // Rows the caller made before any other (the caller's tenant: tenant-world.ts), written first like a parent.
  const parents: World = { ...madeFirst };
  const all = (): World => ({ ...parents, ...world });
  for (const [table, rows] of Object.entries(world)) {
    if (!rows.length) continue;
    const columns = shapes.get(table);
    if (!columns) continue;
    const { needParent, oneToOne, sharedKeys } = fillFacts(columns);
    for (const c of needParent) {
      const leavingOut = rows.filter((r) => !(c.name in r)).length;
      if (!leavingOut) continue;
      const parent = c.references!.table;
      // A one-to-one key names a parent per row (distinctParentKey): as many made as rows leave it out;
      // a key shared with other columns, as many as rows alike on those (parentsForSharedKey).
      const shared = sharedKeys.find((k) => k.column === c);
      const wanted = parent in world ? 1 : oneToOne.includes(c) ? leavingOut : shared ? largestAlikeGroup(rows, shared) : 1;
      while (((parents[parent] ?? world[parent])?.length ?? 0) < wanted) {
        const scratch = all();
        if (!createParent(parent, c.references!.column, scratch, shapes, counter, 0)) break;
        for (const [t, r] of Object.entries(scratch)) if (!(t in world)) parents[t] = r;
        if (parent in world) break;
      }
    }
  }
  const looked = modelTables ? lookupRows({ ...parents, ...world }, shapes, modelTables, counter) : {};
  // A table outside the model is never the world's own: its rows are all made here.
  for (const [t, rows] of Object.entries(looked)) parents[t] = [...(parents[t] ?? []), ...rows];
  const created = Object.keys(parents);
  return { world: fillWorld(created.length ? { ...parents, ...world } : world, shapes), parents: created, lookups: Object.keys(looked) };
}

/** What filling reads of a table's shape, per shape (the plan's, made once): asked for every world of every case. */
interface FillFacts {
  /** NOT NULL columns without a default the target computes itself (serverMustWrite): a row must carry them. */
  missing: ColumnShape[];
  /** Generated columns: the target computes them and refuses a value. */
  generated: ReadonlySet<string>;
  /** Of `missing`, those that reference another table: a row without them needs a parent row. */
  needParent: ColumnShape[];
  /** Of `needParent`, those unique on their own (a one-to-one key: Prisma's `userId @unique`): each row names a parent of its own. */
  oneToOne: ColumnShape[];
  /** Of `needParent`, those in a unique key with other columns (`unique (document_id, professor_id)`): rows alike on the others name parents of their own. */
  sharedKeys: SharedKeyColumn[];
  /** Of `missing`, those that reference no table: a model INSERT gets a value for them. */
  insertFilled: ColumnShape[];
  /** CHECKs tying columns to one another (agreeing-columns.ts). */
  agreements: ColumnAgreement[];
}

/** How a drop for too few parent rows ends (realizable.ts gives it its remedy by it). */
export const TOO_FEW_PARENTS = 'rows for them to name';

const fillFactsOf = new WeakMap<readonly ColumnShape[], FillFacts>();

function fillFacts(columns: readonly ColumnShape[]): FillFacts {
  let facts = fillFactsOf.get(columns);
  if (!facts) {
    const missing = columns.filter(serverMustWrite);
    const needParent = missing.filter((c) => c.references);
    // A caller's default is the API request's to fill (the signed-in writer's id or tenant), never the model INSERT's.
    const oneToOne = needParent.filter((c) => c.unique || c.uniqueIndexes?.length);
    facts = { missing, generated: new Set(columns.filter((c) => c.generated).map((c) => c.name)), needParent, oneToOne, sharedKeys: sharedKeyColumns(columns, needParent.filter((c) => !oneToOne.includes(c))), insertFilled: missing.filter((c) => !c.references && !c.callerDefault), agreements: columns.flatMap((c) => c.agreements ?? []) };
    fillFactsOf.set(columns, facts);
  }
  return facts;
}

/**
 * A one-to-one key's value for a row that leaves it out: the first parent row no other row of the
 * table names yet (two records given the same user collided under `StudentRecord_userId_key`,
 * stranger-app-8). Fewer parents than rows: the case cannot exist here (a parent the world lacks
 * would be a row the model does not know), dropped by name.
 */
function distinctParentKey(table: string, column: ColumnShape, world: World, taken: Set<string>): Json {
  const ref = column.references!;
  for (const parent of world[ref.table] ?? []) {
    const key = parent[ref.column];
    if (key === undefined || key === null || taken.has(JSON.stringify(key))) continue;
    taken.add(JSON.stringify(key));
    return key;
  }
  throw new UnfillableColumn(`${table}.${column.name} is unique and references ${ref.table}: this case has more ${table} rows than ${ref.table} ${TOO_FEW_PARENTS}`, table);
}

/** A foreign-key column the fixtures fill that a unique key holds with `others` (`unique (document_id, professor_id)`). */
interface SharedKeyColumn {
  column: ColumnShape;
  others: string[];
  /** The key treats nulls as equal (`unique nulls not distinct`): else a row with a null among the others collides with none. */
  nullsNotDistinct?: true;
}

function sharedKeyColumns(columns: readonly ColumnShape[], filledReferences: readonly ColumnShape[]): SharedKeyColumn[] {
  const keys = columns.flatMap((c) => c.uniqueTogether ?? []);
  return filledReferences.flatMap((column) => {
    const key = keys.find((k) => k.columns.includes(column.name));
    return key ? [{ column, others: key.columns.filter((name) => name !== column.name), ...(key.nullsNotDistinct ? { nullsNotDistinct: true as const } : {}) }] : [];
  });
}

/** Rows alike on a shared key's other columns (as drawn: a column left out is alike too), by those values. */
const alikeOn = (row: Row, others: readonly string[]): string => JSON.stringify(others.map((name) => row[name] ?? null));

/** The most rows leaving `key.column` out that are alike on its other columns: the parents they need, one each. */
function largestAlikeGroup(rows: readonly Row[], key: SharedKeyColumn): number {
  const counts = new Map<string, number>();
  for (const r of rows) if (!(key.column.name in r)) counts.set(alikeOn(r, key.others), (counts.get(alikeOn(r, key.others)) ?? 0) + 1);
  return Math.max(1, ...counts.values());
}

/**
 * Each row's value for a filled foreign key that a unique key holds with other columns: rows alike
 * on those others name parents no other of them names (stranger-app-9's two sign requests to one
 * professor, both given the one document the fixtures made, collided under
 * `unique (document_id, professor_id)`: 32 to 55 worlds a run). Undefined at rows that carry the
 * column. Fewer parents than such rows: the case cannot exist here, dropped by name.
 */
function parentsForSharedKey(table: string, key: SharedKeyColumn, rows: readonly Row[], world: World): (Json | undefined)[] {
  const ref = key.column.references!;
  const parents = (world[ref.table] ?? []).flatMap((p) => (p[ref.column] === undefined || p[ref.column] === null ? [] : [p[ref.column]!]));
  const taken = new Map<string, Set<string>>();
  const takenBy = (group: string) => taken.get(group) ?? taken.set(group, new Set()).get(group)!;
  for (const r of rows) if (key.column.name in r && r[key.column.name] !== null) takenBy(alikeOn(r, key.others)).add(JSON.stringify(r[key.column.name]));
  return rows.map((r) => {
    if (key.column.name in r) return undefined;
    // Postgres holds nulls distinct in a unique key: such a row collides with no other, any parent will do.
    if (!key.nullsNotDistinct && key.others.some((o) => r[o] === null) && parents.length) return parents[0];
    const held = takenBy(alikeOn(r, key.others));
    const parent = parents.find((p) => !held.has(JSON.stringify(p)));
    if (parent === undefined) {
      if (!parents.length) throw new UnfillableColumn(`${table}.${key.column.name} references ${ref.table}, which has no row in this case`, table);
      throw new UnfillableColumn(`${table} (${[key.column.name, ...key.others].join(', ')}) is unique and ${key.column.name} references ${ref.table}: this case has more ${table} rows alike on ${key.others.join(', ')} than ${ref.table} ${TOO_FEW_PARENTS}`, table);
    }
    held.add(JSON.stringify(parent));
    return parent;
  });
}

export function fillWorld(world: World, shapes: TableShapes): World {
  let n = 1;
  const out: World = {};
  for (const [table, rows] of Object.entries(world)) {
    const columns = shapes.get(table);
    if (!columns) {
      out[table] = rows;
      continue;
    }
    const { missing, generated, oneToOne, sharedKeys, agreements } = fillFacts(columns);
    const parentsTaken = new Map(oneToOne.map((c) => [c, new Set(rows.flatMap((r) => (r[c.name] === undefined || r[c.name] === null ? [] : [JSON.stringify(r[c.name])])))]));
    const sharedParents = new Map(sharedKeys.map((k) => [k.column, parentsForSharedKey(table, k, rows, world)]));
    const completed = rows.map((row, at) => {
      // A row with nothing to add or leave out is written as it is.
      if (missing.every((c) => c.name in row) && (generated.size === 0 || !Object.keys(row).some((k) => generated.has(k)))) return agreements.length ? withAgreeingColumns(row, row, columns, agreements, (c) => valueFor(table, c, n++, world)) : row;
      // The target computes a generated column itself and refuses a value for it. (Left out while
      // copying rather than deleted after: a deleted key leaves a slow object, and every fixture row is serialized.)
      const filled: Row = {};
      for (const k of Object.keys(row)) if (!generated.has(k)) filled[k] = row[k];
      for (const c of missing) {
        if (c.name in filled) continue;
        const shared = sharedParents.get(c);
        filled[c.name] = parentsTaken.has(c) ? distinctParentKey(table, c, world, parentsTaken.get(c)!) : shared ? shared[at]! : valueFor(table, c, n++, world);
      }
      return agreements.length ? withAgreeingColumns(row, filled, columns, agreements, (c) => valueFor(table, c, n++, world)) : filled;
    });
    out[table] = agreements.length ? withKeysOfEveryRow(completed, columns, (c) => valueFor(table, c, n++, world)) : completed;
  }
  return out;
}

/**
 * The model's own INSERT requests, completed like fixtures: NOT NULL columns without a default
 * that the model does not know (and so never sends) get a value the schema accepts. A column
 * that needs a referenced row is left out (the database answers for it). Values are numbered
 * from 1000 so they never collide with the case's fixture values.
 */
export function fillInsertRows(table: string, rows: Row[], shapes: TableShapes): Row[] {
  const columns = shapes.get(table);
  if (!columns) return rows;
  const missing = fillFacts(columns).insertFilled;
  if (!missing.length) return rows;
  let n = 1000;
  return rows.map((row) => {
    const filled: Row = { ...row };
    for (const c of missing) {
      if (c.name in filled) continue;
      try {
        filled[c.name] = valueFor(table, c, n++, {});
      } catch (e) {
        if (!(e instanceof UnfillableColumn)) throw e;
      }
    }
    return filled;
  });
}
