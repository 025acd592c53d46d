/**
 * Rows and PATCH bodies for any table, read from its TableModel (rule 1 is generic: a column
 * the model lists is patched without anyone writing a generator for it). Values follow the
 * column type; a column with a CHECK draws mostly from the settings' vocabularies that pass it;
 * uuid columns draw from the case's people, so references to auth.users always resolve.
 */
import fc from 'fast-check';
import type { Json, Row } from '../../../engine/model/json.ts';
import { holdsNotNull, ModelSettingsSchema, type ModelSettings } from '../model/settings.ts';
import type { ColumnSpec, TableModel } from '../../../engine/model/table-model.ts';
import type { World } from '../../../engine/model/world.ts';
import { fakerValue, internationalPhoneNumber } from './faker.ts';
import { emailAddressFor } from './email-draw.ts';
import { peopleWorld, type Person } from './identities.ts';

// Text whose content no rule reads does not shrink: a failing case shrinks in few tries.
const words = fc.noShrink(fakerValue((f) => f.lorem.words({ min: 1, max: 4 }), 'loremWords'));
const url = fc.noShrink(fakerValue((f) => f.internet.url(), 'url'));
const TRICKY = ['', ' ', "O'Brien", '%', '_', '\\', '"quoted"', 'a,b', '(x)', 'UPPER', 'ünïcödé'];
const TIMESTAMPS = ['2024-01-01T00:00:00+00:00', '2025-06-30T12:30:00+00:00'];

/** Per settings object: its vocabulary (a run's settings never change; cases draw it for every checked text column). */
const vocabularies = new WeakMap<ModelSettings, readonly string[]>();

/** Every string the settings name (roles, statuses, permissions, departments, …). */
export function vocabulary(settings: ModelSettings): string[] {
  let known = vocabularies.get(settings);
  if (!known) vocabularies.set(settings, (known = vocabularyOf(settings)));
  return [...known];
}

/**
 * Every string a setting holds as a value of the project's own (a role, a status, a department,
 * a message pattern), read with the settings schema: a setting the schema declares as one of a
 * fixed list (a z.enum: phoneStyle, vs.publicCommenters, …) is a choice of reading or drawing,
 * no value a column holds, so it is left out and a new one draws no other case.
 */
function vocabularyOf(settings: ModelSettings): string[] {
  const out = new Set<string>();
  walkValues(settings, ModelSettingsSchema as unknown as SchemaNode, out);
  return [...out];
}

/** The zod definition this walk reads (zod 4's `_zod.def`): only the kinds the settings schema uses. */
interface SchemaDef {
  type: string;
  innerType?: SchemaNode;
  shape?: Record<string, SchemaNode>;
  element?: SchemaNode;
  valueType?: SchemaNode;
  options?: SchemaNode[];
}
type SchemaNode = { _zod: { def: SchemaDef }; safeParse(v: unknown): { success: boolean } };

function walkValues(value: unknown, schema: SchemaNode, out: Set<string>): void {
  let def = schema._zod.def;
  while (def.innerType) def = def.innerType._zod.def; // default, prefault, optional, nullable
  if (def.type === 'enum') return;
  if (def.type === 'union') {
    const fits = def.options!.find((o) => o.safeParse(value).success);
    if (fits) walkValues(value, fits, out);
  } else if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) value.forEach((v) => walkValues(v, def.element!, out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      const inner = def.type === 'object' ? def.shape![k] : def.valueType;
      if (inner) walkValues(v, inner, out);
    }
}

export interface ValueContext {
  settings: ModelSettings;
  /** ids of the case's people (auth.users): uuid columns draw from these. */
  ids: string[];
  /** Only values the column's CHECK and NOT NULL accept (fixtures). */
  valid?: boolean;
}

/**
 * Per column, settings and validity: the arbitrary of a column whose values do not depend on the
 * case's people (every type but uuid). Arbitraries are immutable, so one made once draws exactly
 * what a new one would; building them anew for every row and PATCH of every case was most of
 * the generators' cost.
 */
const peopleFreeValues = new WeakMap<ColumnSpec, WeakMap<ModelSettings, Map<string, fc.Arbitrary<Json>>>>();

function cachedPerColumn(col: ColumnSpec, settings: ModelSettings, key: string, make: () => fc.Arbitrary<Json>): fc.Arbitrary<Json> {
  let bySettings = peopleFreeValues.get(col);
  if (!bySettings) peopleFreeValues.set(col, (bySettings = new WeakMap()));
  let byKey = bySettings.get(settings);
  if (!byKey) bySettings.set(settings, (byKey = new Map()));
  let made = byKey.get(key);
  if (!made) byKey.set(key, (made = make()));
  return made;
}

function freshValue(col: ColumnSpec, vc: ValueContext): fc.Arbitrary<Json> {
  if (col.type === 'uuid') return fc.constantFrom(...vc.ids);
  return cachedPerColumn(col, vc.settings, `fresh:${vc.valid === true}`, () => peopleFreeValue(col, vc.settings, vc.valid === true));
}

function peopleFreeValue(col: ColumnSpec, settings: ModelSettings, valid: boolean): fc.Arbitrary<Json> {
  switch (col.type) {
    case 'uuid':
      throw new Error('a uuid column draws from the case\'s people');
    case 'text': {
      // A phone column (the model says so: shipping_phone, not phone_note) under phoneStyle international: a number a phone CHECK or domain holds.
      if (settings.phoneStyle === 'international' && col.format === 'phone') return internationalPhoneNumber;
      // An e-mail column under emailDomain: an e-mail the target's domain CHECK holds (words there are refused before any rule).
      if (settings.emailDomain && col.format === 'email') return emailAddressFor(settings);
      if (col.check) {
        const ok = vocabulary(settings).filter((v) => col.check!(v, settings));
        if (ok.length && valid) return fc.constantFrom(...ok);
        if (ok.length) return fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...ok) }, { weight: 1, arbitrary: fc.constantFrom(...vocabulary(settings), ...TRICKY) });
      }
      return fc.oneof({ weight: 4, arbitrary: words }, { weight: 1, arbitrary: url }, { weight: 1, arbitrary: fc.constantFrom(...TRICKY) });
    }
    case 'text[]':
      return fc.array(fc.oneof(url, fc.constantFrom(...settings.permissions)), { maxLength: 3 });
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'numeric': {
      const n = fc.integer({ min: 0, max: 5000 });
      const checked = col.check ? n.filter((v) => col.check!(v, settings)) : n;
      return valid ? checked : fc.oneof({ weight: 9, arbitrary: checked }, { weight: 1, arbitrary: fc.constant(-1) });
    }
    case 'timestamptz':
      return fc.constantFrom(...TIMESTAMPS);
    case 'jsonb':
      return fc.array(fc.record({ event: fc.constantFrom('created', 'slip_uploaded', 'verified', 'note'), by: fc.constantFrom('buyer', 'staff', 'system') }), { maxLength: 2 });
  }
}

/** A value for `col`: fresh, sometimes null where allowed, sometimes the stored one (a no-op). */
export function columnValue(col: ColumnSpec, vc: ValueContext, current?: Row): fc.Arbitrary<Json> {
  const withNull = col.type === 'uuid' ? maybeNull(col, vc, freshValue(col, vc)) : cachedPerColumn(col, vc.settings, `withNull:${vc.valid === true}`, () => maybeNull(col, vc, freshValue(col, vc)));
  if (current && col.name in current) return fc.oneof({ weight: 1, arbitrary: fc.constant(current[col.name]) }, { weight: 3, arbitrary: withNull });
  return withNull;
}

/** `fresh`, or null at times where the column (or, outside fixtures, the write) allows it. */
function maybeNull(col: ColumnSpec, vc: ValueContext, fresh: fc.Arbitrary<Json>): fc.Arbitrary<Json> {
  const nullable = col.nullable || (!vc.valid && !col.serverAssigned);
  return nullable ? fc.option(fresh, { nil: null, freq: col.nullable ? 3 : 12 }) : fresh;
}

/** Columns a row or a PATCH may name: every column but the generated ones. */
export function writableColumns(model: TableModel): ColumnSpec[] {
  return model.columns.filter((c) => !c.generated);
}

/** A row's own uuid key. */
const ROW_KEY = fc.noShrink(fc.uuid({ version: 4 }));

/** `c` drawn without its null, one object per column, so the per-column arbitraries stay cached. */
const heldColumns = new WeakMap<ColumnSpec, ColumnSpec>();
function heldNotNull(c: ColumnSpec): ColumnSpec {
  let held = heldColumns.get(c);
  if (!held) heldColumns.set(c, (held = { ...c, nullable: false }));
  return held;
}

/** A valid row (fixture) of any table: server-assigned NOT NULL columns are left to their defaults. */
export function tableRow(model: TableModel, vc: ValueContext): fc.Arbitrary<Row> {
  const cols = writableColumns(model).filter((c) => !(c.serverAssigned && !c.nullable) || model.primaryKey.includes(c.name));
  const valid = { ...vc, valid: true };
  // A column the target holds NOT NULL (settings.notNullColumns) is drawn without its null.
  const value = (c: ColumnSpec) => (c.type === 'uuid' && model.primaryKey.includes(c.name) ? ROW_KEY : columnValue(holdsNotNull(vc.settings, model.table, c.name) ? heldNotNull(c) : c, valid));
  return fc.tuple(...cols.map(value)).map((values) => Object.fromEntries(cols.map((c, i) => [c.name, values[i]])));
}

/** A PATCH naming a subset of the table's columns (mostly one to three), privileged ones included. */
export function tablePatch(model: TableModel, vc: ValueContext, current?: Row, focus: string[] = [], editable: readonly string[] = []): fc.Arbitrary<Row> {
  return patchColumns(model, focus, editable).chain((cols) =>
    fc.tuple(...cols.map((n) => columnValue(model.columns.find((c) => c.name === n)!, vc, current))).map((values) => Object.fromEntries(cols.map((c, i) => [c, values[i]]))),
  );
}

/** Per table: the arbitrary of a PATCH's column names, by focus and allow-list (made once: arbitraries are immutable). */
const patchColumnSets = new WeakMap<TableModel, Map<string, fc.Arbitrary<string[]>>>();

function patchColumns(model: TableModel, focus: string[], editable: readonly string[]): fc.Arbitrary<string[]> {
  let byKey = patchColumnSets.get(model);
  if (!byKey) patchColumnSets.set(model, (byKey = new Map()));
  const key = JSON.stringify([focus, editable]);
  let made = byKey.get(key);
  if (!made) {
    if (byKey.size >= 256) byKey.clear();
    byKey.set(key, (made = patchColumnsOf(model, focus, editable)));
  }
  return made;
}

function patchColumnsOf(model: TableModel, focus: string[], editable: readonly string[]): fc.Arbitrary<string[]> {
  const names = writableColumns(model).map((c) => c.name);
  const guarded = names.filter((n) => !editable.includes(n));
  const allowed = names.filter((n) => editable.includes(n));
  const subset = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...names).map((n) => [n]) },
    { weight: 2, arbitrary: fc.shuffledSubarray(names, { minLength: 1, maxLength: 3 }) },
    { weight: 1, arbitrary: fc.subarray(names, { minLength: 1 }) },
    ...(focus.length ? [{ weight: 3, arbitrary: fc.shuffledSubarray(focus, { minLength: 1, maxLength: 2 }) }] : []),
    // One column outside the allow-list, alone or with allowed ones: a guard that misses it is seen.
    // A short allow-list (owners cannot update: `ownerEditableColumns: []`, only guardExcludedColumns left) adds fewer.
    ...(editable.length && guarded.length
      ? [{ weight: 4, arbitrary: fc.tuple(fc.constantFrom(...guarded), fc.shuffledSubarray(allowed, { maxLength: Math.min(2, allowed.length) })).map(([g, a]) => [g, ...a]) }]
      : []),
  );
  return subset;
}

/**
 * The rows a case of a table starts from, given its people. Tables whose rows need more than
 * people (other tables they reference) register their own here.
 */
export type OwnerTableWorld = (model: TableModel, settings: ModelSettings, list: Person[]) => fc.Arbitrary<World>;

const defaultWorld: OwnerTableWorld = (model, settings, list) =>
  fc
    .noShrink(
      fc.uniqueArray(tableRow(model, { settings, ids: list.map((p) => p.id) }), {
      minLength: 1,
      maxLength: 4,
        selector: (r) => model.primaryKey.map((k) => JSON.stringify(r[k] ?? null)).join('|'),
      }),
    )
    .map((rows) => ({ ...peopleWorld(list), [model.table]: rows }));

export const ownerTableWorlds: Record<string, OwnerTableWorld> = {
  users: (_model, _settings, list) => fc.constant(peopleWorld(list)),
};

export function ownerTableWorld(model: TableModel, settings: ModelSettings, list: Person[]): fc.Arbitrary<World> {
  return (ownerTableWorlds[model.table] ?? defaultWorld)(model, settings, list);
}
