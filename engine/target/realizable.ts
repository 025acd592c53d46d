/**
 * Whether a model world can exist on this target at all, decided from its catalog (TableShapes)
 * before anything is written. A world the target cannot hold — a null in a NOT NULL column, a
 * value outside a CHECK vocabulary, a row whose foreign key needs a row of a model table the world
 * lacks, two rows equal under a unique index (of one column or several) — is not realizable here: its case is dropped and
 * counted by reason, never written and never an error. Pure (no I/O).
 *
 * Applied to a case's world and to each world the model predicts after a step: a write the model
 * allows into a state the target cannot hold is a difference of schema, not of rules.
 */
import { KEY_THE_MODEL_LACKS } from './key-the-model-lacks.ts';
import type { Json } from '../model/json.ts';
import type { World } from '../model/world.ts';
import type { ColumnShape, TableShapes, UniqueIndex } from '../introspection/table-shapes.ts';
import { normalizedValue, patternHolds, type CheckForm } from '../introspection/check-forms.ts';
import { TOO_FEW_PARENTS } from './fill-row.ts';

export { NotRealizable } from '../errors.ts';

const keyOf = (v: Json) => (typeof v === 'string' ? v.toLowerCase() : JSON.stringify(v));

function folded(v: Json, fold: UniqueIndex['fold']): string {
  let s = typeof v === 'string' ? v : JSON.stringify(v);
  if (fold.trim) s = s.replace(/^ +| +$/g, '');
  return fold.lower ? s.toLowerCase() : s;
}

/** Whether the column has anything for a world to break: the others are never looked at. */
function constrains(c: ColumnShape): boolean {
  return !c.generated && (c.notNull || c.vocabulary !== undefined || (c.enumLabels?.length ?? 0) > 0 || (c.elementEnumLabels?.length ?? 0) > 0 || c.references !== undefined || (c.uniqueIndexes?.length ?? 0) > 0 || (c.uniqueTogether?.length ?? 0) > 0 || c.checks !== undefined);
}

/** Per table shape (the plan's, made once): its columns that constrain a row, in order. Asked for every world of every case. */
const constrainingColumns = new WeakMap<readonly ColumnShape[], readonly ColumnShape[]>();

function constraining(columns: readonly ColumnShape[]): readonly ColumnShape[] {
  let kept = constrainingColumns.get(columns);
  if (!kept) constrainingColumns.set(columns, (kept = columns.filter(constrains)));
  return kept;
}

/**
 * The keys (keyOf) a world's rows of `table` hold in `column`, made once per world and column
 * asked (`made`): a foreign key looks its value up instead of going through every parent row.
 */
function parentKeys(world: World, table: string, column: string, made: Map<string, ReadonlySet<string>>): ReadonlySet<string> {
  const id = `${table}\u0000${column}`;
  let keys = made.get(id);
  if (!keys) {
    const found = new Set<string>();
    for (const p of world[table] ?? []) {
      const v = p[column];
      if (v !== undefined && v !== null) found.add(keyOf(v));
    }
    made.set(id, (keys = found));
  }
  return keys;
}

function columnProblem(table: string, c: ColumnShape, rows: readonly Record<string, Json>[], world: World, shapes: TableShapes, modelTables: ReadonlySet<string>, parents: Map<string, ReadonlySet<string>>): string | undefined {
  const name = c.name;
  const ref = c.references && modelTables.has(c.references.table) ? c.references : undefined;
  let parentsHeld: ReadonlySet<string> | undefined;
  // Rows that leave the column out are the filler's (or the default's) to complete.
  for (const r of rows) {
    if (!(name in r)) continue;
    const v = r[name];
    if (v === null) {
      if (c.notNull) return `${table}.${name} is NOT NULL`;
      continue;
    }
    if (typeof v === 'string' && c.vocabulary && !c.vocabulary.includes(v)) return `${table}.${name} is outside CHECK ${c.vocabularyConstraint}`;
    if (outsideEnum(c, v)) return `${table}.${name} is outside its enum`;
    if (ref && !(parentsHeld ??= parentKeys(world, ref.table, ref.column, parents)).has(keyOf(v))) return missingParent(table, name, ref, v, world, shapes);
    const refused = c.checks?.find((check) => refusesValue(check, v));
    if (refused) return `${table}.${name} is refused by CHECK ${refused.constraint} (${describeCheck(refused)})`;
  }
  for (const index of c.uniqueIndexes ?? []) {
    const seen = new Set<string>();
    for (const r of rows) {
      const k = indexKey(name, index, r);
      if (k === undefined) continue;
      if (seen.has(k)) return `${table}.${name} values collide under unique index ${index.name}${r[name] === null ? NULLS_COLLIDE : ''}`;
      seen.add(k);
    }
  }
  for (const key of c.uniqueTogether ?? []) {
    const seen = new Set<string>();
    for (const r of rows) {
      const k = togetherKey(key, r);
      if (k === undefined) continue;
      if (seen.has(k)) return `${table} (${key.columns.join(', ')}) values collide under unique index ${key.name}${key.columns.some((c) => r[c] === null) ? NULLS_COLLIDE : ''}`;
      seen.add(k);
    }
  }
  return undefined;
}

/**
 * Why a reference finds no parent: the parent row is missing, or it is there and the value is its
 * other key (stranger-app-17's `student_change_requests.student_id references
 * student_records.student_id`, a text natural key, where the model names the record by its id,
 * the target's `member_id`): a reference the model's value cannot follow without translating it
 * through the row, not a row the world lacks.
 */
function missingParent(table: string, name: string, ref: NonNullable<ColumnShape['references']>, v: Json, world: World, shapes: TableShapes): string {
  const key = keyOf(v);
  const otherKeys = (shapes.get(ref.table) ?? []).filter((p) => p.name !== ref.column && (p.unique || p.primaryKey)).map((p) => p.name);
  const other = otherKeys.find((column) => (world[ref.table] ?? []).some((p) => p[column] !== null && p[column] !== undefined && keyOf(p[column]!) === key));
  return other === undefined
    ? `${table}.${name} needs a ${ref.table} row the case lacks (foreign key)`
    : `${table}.${name} names its ${ref.table} row by ${other}, where the foreign key reads ${ref.column} ${OTHER_KEY}`;
}

/** A row's key under a unique index of one column, as the index compares it; undefined where the row leaves the column out, or holds a null that never collides. */
function indexKey(column: string, index: UniqueIndex, r: Readonly<Record<string, Json>>): string | undefined {
  if (!(column in r)) return undefined;
  const v = r[column];
  if (v === null) return index.nullsNotDistinct ? NULL_KEY : undefined;
  return folded(v, index.fold);
}

/** A row's key under a unique index of several columns; undefined where the row leaves one out (filled or defaulted on the target) or holds a null, unless NULLS NOT DISTINCT. */
function togetherKey(key: NonNullable<ColumnShape['uniqueTogether']>[number], r: Readonly<Record<string, Json>>): string | undefined {
  if (key.columns.some((k) => r[k] === undefined || (r[k] === null && !key.nullsNotDistinct))) return undefined;
  return JSON.stringify(key.columns.map((col, i) => (key.folds && r[col] !== null ? folded(r[col]!, key.folds[i]!) : r[col])));
}

/**
 * The positions of `rows` (one table's, target names) whose key under one of its unique indexes
 * (one column or several) an earlier row already holds: rows the target cannot hold beside it.
 * Empty when every key is distinct.
 */
export function rowsRepeatingAKey(rows: readonly Readonly<Record<string, Json>>[], columns: readonly ColumnShape[]): Set<number> {
  const repeated = new Set<number>();
  const keysOf: ((r: Readonly<Record<string, Json>>) => string | undefined)[] = [];
  for (const c of columns) {
    for (const index of c.uniqueIndexes ?? []) keysOf.push((r) => indexKey(c.name, index, r));
    for (const key of c.uniqueTogether ?? []) keysOf.push((r) => togetherKey(key, r));
  }
  for (const keyOfRow of keysOf) {
    const seen = new Set<string>();
    rows.forEach((r, i) => {
      if (repeated.has(i)) return;
      const k = keyOfRow(r);
      if (k === undefined) return;
      if (seen.has(k)) repeated.add(i);
      else seen.add(k);
    });
  }
  return repeated;
}

/**
 * A value Postgres refuses as input for the column's enum (22P02, before any rule): a text outside
 * an enum's labels, or an array holding one where the column is an array of an enum
 * (`"Permission"[]`, as Prisma and Drizzle declare an enum list).
 */
export function outsideEnum(c: Pick<ColumnShape, 'enumLabels' | 'elementEnumLabels'>, v: Json): boolean {
  if (typeof v === 'string') return !!c.enumLabels?.length && !c.enumLabels.includes(v);
  return Array.isArray(v) && !!c.elementEnumLabels?.length && v.some((x) => x !== null && (typeof x !== 'string' || !c.elementEnumLabels!.includes(x)));
}

/** A null's key under NULLS NOT DISTINCT (no folded text value is it), and what the drop reason adds. */
const NULL_KEY = '\u0000null';
const NULLS_COLLIDE = ' (NULLS NOT DISTINCT: two nulls collide)';

/** Whether a simple CHECK (check-forms.ts) surely refuses a drawn value; a value it cannot judge passes (the database judges it). */
export function refusesValue(check: CheckForm, v: Json): boolean {
  if (check.kind === 'pattern') return typeof v === 'string' && patternHolds(check, v) === false;
  if (check.kind === 'normalized') return typeof v === 'string' && normalizedValue(check, v) !== v;
  if (check.kind === 'maxLength') return typeof v === 'string' && [...v].length > check.max;
  if (check.kind === 'minLength') return typeof v === 'string' && [...v].length < check.min;
  if (check.kind === 'minItems') return Array.isArray(v) && v.length < check.min;
  if (check.kind === 'range') return typeof v === 'number' && ((check.min !== undefined && (check.strict ? v <= check.min : v < check.min)) || (check.max !== undefined && (check.strict ? v >= check.max : v > check.max)));
  return false;
}

function describeCheck(check: CheckForm): string {
  if (check.kind === 'pattern') return `format ${check.lowerCased ? 'lower-cased ' : ''}${check.pattern}${check.caseInsensitive ? ' (either case)' : ''}`;
  if (check.kind === 'normalized') return `kept ${[check.lower ? 'lower-cased' : '', check.trim ? 'trimmed' : ''].filter(Boolean).join(' and ')}`;
  if (check.kind === 'maxLength') return `at most ${check.max} characters`;
  if (check.kind === 'minLength') return `at least ${check.min} characters`;
  if (check.kind === 'minItems') return `at least ${check.min} element${check.min === 1 ? '' : 's'}`;
  if (check.kind === 'range') return [check.min !== undefined ? `${check.strict ? '>' : '>='} ${check.min}` : '', check.max !== undefined ? `${check.strict ? '<' : '<='} ${check.max}` : ''].filter(Boolean).join(' and ');
  return `= ${check.addends.join(' + ')}`;
}

/**
 * Why `world` (in the target's names) cannot exist on the target, or undefined. `modelTables`:
 * the tables the model writes (target names); a foreign key to one of them must find its row in
 * the world, one to any other table is the fixture filler's to satisfy. `holds`: a world already
 * found to hold here (the one before a step): a table whose rows are the very same array there,
 * as are those of every table its foreign keys name, holds again and is not gone through again.
 */
export function unrealizableReason(world: World, shapes: TableShapes, modelTables: ReadonlySet<string>, holds?: World): string | undefined {
  const parents = new Map<string, ReadonlySet<string>>();
  for (const table of Object.keys(world)) {
    const rows = world[table];
    const columns = rows.length ? shapes.get(table) : undefined;
    if (!columns) continue;
    const checking = constraining(columns);
    if (holds && rows === holds[table] && checking.every((c) => !c.references || world[c.references.table] === holds[c.references.table])) continue;
    for (const c of checking) {
      const problem = columnProblem(table, c, rows, world, shapes, modelTables, parents);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** The end of a drop reason for a fixture row whose key a row already held (23505). */
export const ALREADY_THERE = 'a row with that key was already there';

/** The end of a drop reason for a fixture row whose foreign key found no row (23503). */
export const NO_PARENT = 'it names a row no table of the world holds';

/** The end of a drop reason for a reference to a row's other key (missingParent). */
export const OTHER_KEY = '(another key of the row: not translated)';

/** The end of a drop reason for a request naming a column the mapping maps to null (fixtures.ts droppedColumnReason). */
export const MAPPED_TO_NULL = 'mapped to null (the target has none)';

/** The end of a drop reason for a write refused as NOT NULL on a column whose default reads the caller (fixtures.ts callerDefaultLeftNull). */
export const CALLER_DEFAULT_LEFT_NULL = "is the caller's by default (a claim), which this caller's token lacks: the model's row names none";

/** What would make cases of this reason realizable: printed by the health note when many are dropped. */
export function remedyFor(reason: string): string {
  // First: the reason quotes the guard's own message, which may say anything.
  if (/\(\) raising "/.test(reason)) {
    return 'a guard in code (a trigger) refuses even the server\'s fixture rows: on a table the model does not write (auth.mfa_factors, storage.objects), switch it off while fixtures are written ("fixtures": { "bypassTriggers": ["<schema>.<table>.<trigger>"] }; `policyfuzz init` proposes it); on a model table, draw the rows it accepts; docs/config.md';
  }
  if (/ is NOT NULL$/.test(reason)) {
    const column = reason.replace(/ is NOT NULL$/, '');
    // A pack whose generators leave such a column null on purpose draws none where it names the
    // column in its not-null setting (Pack.notNullDraws; `policyfuzz init` writes it).
    return `the model's rows with a null ${column.split('.').pop()} are not realizable here (where the pack has a setting for it, draw none: the reference's model.notNullColumns.${column.split('.').slice(0, -1).join('.')}, which \`policyfuzz init\` writes; or map ${column} to a column that allows null, or accept fewer cases)`;
  }
  if (/is GENERATED ALWAYS/.test(reason)) return 'the model writes its own ids where the target generates them always (`generated by default as identity` takes them, or accept fewer cases)';
  if (reason.endsWith(OTHER_KEY)) {
    return "the target's foreign key reads a key of the parent row the model's column does not hold (a natural key, such as a student number, where the model names the row by its id): policyfuzz does not translate such a reference yet, so these cases cannot be held here; nothing to configure";
  }
  if (/foreign key to a table outside the model/.test(reason)) return "the model writes values the target's lookup table does not hold (map the values in the config; where the target keeps a row of its own per model row, as a person per student record, write it beside them with mapping.tables.<model table>.alsoWrite; or accept fewer cases)";
  if (/foreign key/.test(reason)) return 'the model makes such rows without their parent (give the target a parent row through the mapping, or accept fewer cases)';
  if (/unique index/.test(reason)) return 'the model draws values equal under that index';
  // fill-row.ts: a parent per row (a one-to-one key, or a key shared with other columns) among the world's rows of that table.
  if (reason.endsWith(TOO_FEW_PARENTS)) {
    return "the target's unique key over a column the fixtures fill from a parent table needs a parent row per row, and the world holds fewer such parent rows than rows naming them: no mapping makes them; accept fewer cases";
  }
  if (reason.endsWith(NO_PARENT)) {
    return "the world's rows give a value to a column that references a table the worlds do not write: leave the column out of the rows (the fixtures then make a parent row and name it) or write that table in the worlds (and `fixtureOrder`)";
  }
  // Not a refusal: the request was never sent. The catch-all said the target refused it.
  if (reason.endsWith(MAPPED_TO_NULL)) {
    return 'requests naming a column the target does not have cannot be sent: where the target keeps it under another name, map it (mapping.tables.<table>.columns); otherwise they do not apply here, nothing to configure (the property runs on its other cases)';
  }
  if (reason.endsWith(CALLER_DEFAULT_LEFT_NULL)) {
    return 'where the project copies that claim into auth.users.raw_app_meta_data, "tokens": { "appMetadata": "auth.users" } sends it (docs/config.md); a caller the project gives no such claim cannot write the row: nothing to configure';
  }
  // The world's own rows come first: a key only the target has (a unique pair the model lets
  // repeat) is refused between two rows of the case, where no trigger or seed is involved.
  if (reason.endsWith(ALREADY_THERE)) {
    return 'two of the case\'s own rows share that key, which the target holds unique and the model does not (cases it cannot hold: nothing to configure), or a trigger made that row while the fixtures were written (a signup trigger on auth.users: "fixtures": { "bypassTriggers": ["auth.users.<trigger>"] }, or "users": "auth-trigger" when it only makes the users rows; `policyfuzz init` names such a trigger), or the migrations seeded it ("fixtures": { "emptyTables": [...] }); docs/config.md';
  }
  // key-the-model-lacks.ts: a 23505 on a key the model does not keep, where it expected the write to succeed.
  if (reason.endsWith(KEY_THE_MODEL_LACKS)) {
    return "the target holds unique a key the model lets repeat (an index on an expression, a partial one, another table's a trigger or an extension writes): cases it cannot hold, nothing to configure; where the application's rules mean that key too, the pack's model is to keep it";
  }
  // fixtures.ts unrealizableAnswer: a 23514 where the model expected the write to succeed.
  if (/\(a CHECK the model does not have\)$/.test(reason)) {
    return "a CHECK of the project's refuses values the model's columns accept: map the values (mapping.tables.<table>.values) or narrow the pack's vocabulary setting for that column; where the model has that CHECK too, the mapping gives it values it does not list (a mapping error, not a schema difference)";
  }
  if (/ is refused by CHECK .*\(kept (?:lower-cased|trimmed)/.test(reason)) {
    return "the model draws text the project's CHECK keeps lower-cased or trimmed (a person's e-mail with its case flipped or padded): where the pack has a setting for it, draw it as stored: the reference's model.normalizedColumns.<model table>, which `policyfuzz init` writes; or accept fewer cases";
  }
  if (/ is refused by CHECK /.test(reason)) return "the model draws values the project's CHECK refuses (the fixtures fill the columns the model leaves out to fit it; a drawn value that breaks it is no case here): map the values (mapping.tables.<table>.values), or accept fewer cases";
  if (/outside/.test(reason)) return "the model's vocabulary is wider than the target's (map the values in the config)";
  return 'the target refuses what the model writes';
}
