/**
 * A project's pack, loaded from its module (`--pack <module>` or a config's `pack` key): a .js,
 * .mjs or .ts file whose default export (or `pack` export) is a pack made with `extendPack` or
 * `definePack` from `policyfuzz`. Anything else is a usage error naming the file and what it
 * must export.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { UsageError } from '../errors.ts';
import type { Pack } from '../pack.ts';
import { COLUMN_TYPES } from '../model/table-model.ts';
import { importModule, MODULE_EXTENSIONS } from './project-module.ts';
import { withModelBlamingThePack } from './pack-model-blame.ts';
import { preloadTheApiPacksImport } from './preloaded-api.ts';
import { shownPath } from './shown-path.ts';

const HOW_TO_EXPORT = "export default extendPack(referencePack, { name, mapping, … }) (or definePack({ … })), both from 'policyfuzz'";

/** Where a pack's tables go: given beside `name`, or as a list, they are no model's. */
const TABLES_UNDER_MODEL = 'model: { tables: { [table.table]: table, … }, fixtureOrder }';

/** The parts every pack has that `value` lacks: none for a pack, all for something else a module exports. */
function missingPackParts(value: unknown): string[] {
  const v = (value && typeof value === 'object' ? value : {}) as Partial<Pack>;
  return [
    typeof v.name !== 'string' && 'name (a string)',
    !Array.isArray(v.properties) && 'properties (an array)',
    typeof v.model?.tables !== 'object' && `model.tables${'tables' in v || 'fixtureOrder' in v ? ` (${TABLES_UNDER_MODEL})` : ''}`,
    Array.isArray(v.model?.tables) && `model.tables as an object (${TABLES_UNDER_MODEL}), not an array`,
    typeof v.settingsSchema?.safeParse !== 'function' && 'settingsSchema (a zod schema)',
  ].filter((part): part is string => part !== false);
}

function isPack(value: unknown): value is Pack {
  return missingPackParts(value).length === 0;
}

/** `from`: where the path came from, for the error (`--pack`, `"pack" in policyfuzz.config.json`). */
export async function loadPackModule(file: string, from: string): Promise<Pack> {
  const absolute = path.resolve(file);
  if (!existsSync(absolute) || !statSync(absolute).isFile()) throw new UsageError(`pack module not found: ${file} (${from})`);
  if (!MODULE_EXTENSIONS.test(absolute)) throw new UsageError(`pack module ${file} (${from}) must be a .ts, .mts, .cts, .js, .mjs or .cjs file`);
  await preloadTheApiPacksImport();
  let exports: Record<string, unknown>;
  try {
    exports = await importModule(absolute);
  } catch (e) {
    const why = (e as Error).message.split('\n')[0];
    throw new UsageError(`pack module ${file} (${from}) could not be loaded: ${why}`);
  }
  const pack = [exports.default, exports.pack].find(isPack);
  if (pack) {
    // A pack loaded from JavaScript, or TypeScript nobody type-checked: a type the model does not know made the column "not found" in init's mapping.
    const unknownType = Object.values(pack.model.tables).flatMap((t) => t.columns.filter((c) => !(COLUMN_TYPES as readonly string[]).includes(c.type)).map((c) => `${t.table}.${c.name} has type ${JSON.stringify(c.type)}`))[0];
    if (unknownType) throw new UsageError(`pack module ${file} (${from}): column ${unknownType}; a model column is one of ${COLUMN_TYPES.join(', ')} (an int or serial column is integer)`);
    return withCasesBlamingThePack(withModelBlamingThePack(pack, absolute, shownPath(absolute)), absolute);
  }
  // A default export with some of a pack's parts is a pack with a part missing: name what.
  const nearest = [exports.default, exports.pack].find((v) => v && typeof v === 'object' && missingPackParts(v).length < missingPackParts({}).length);
  if (nearest) throw new UsageError(`pack module ${file} (${from}): its ${nearest === exports.default ? 'default' : '`pack`'} export lacks ${missingPackParts(nearest).join(', ')}: ${HOW_TO_EXPORT}`);
  const names = Object.keys(exports);
  throw new UsageError(`pack module ${file} (${from}) does not export a pack${names.length ? ` (it exports ${names.join(', ')})` : ' (it exports nothing)'}: ${HOW_TO_EXPORT}`);
}

/**
 * The pack with each property's cases drawn as `drawnBlamingThePack` says: one guard for a pack the
 * CLI loads (`module`: its file, whose line the error then names) and one given to `describePack`.
 */
export function withCasesBlamingThePack<P extends Pack<any>>(pack: P, module?: string): P {
  return { ...pack, properties: pack.properties.map((p) => withCasesBlamingItsPack(p, pack.name, module)) };
}

/** One property of pack `packName` (from `module`, when known) with its cases drawn as `drawnBlamingThePack` says. */
export function withCasesBlamingItsPack<P extends Pack<any>['properties'][number]>(property: P, packName: string, module?: string): P {
  const blamed = (cases: typeof property.cases) => (settings: never, oracle?: never) => drawnBlamingThePack(property.id, packName, module, () => cases(settings, oracle));
  // A sweep's cases are the pack's too (DataProperty.sweep): drawn under the same guard.
  return { ...property, cases: blamed(property.cases), ...(property.sweep ? { sweep: property.sweep.map(blamed) } : {}) };
}

/**
 * A property's cases whose drawing, when the pack's own generator throws (`fc.constantFrom()` of
 * an empty list) or a `.filter()` of it accepts nothing, is a usage error naming the property, the
 * module and the line (or the pack, given as a value): the pack's bug, never policyfuzz's
 * "internal error" with its stack, nor a draw that never returns.
 */
function drawnBlamingThePack<T>(id: string, packName: string, absolute: string | undefined, cases: () => fc.Arbitrary<T>): fc.Arbitrary<T> {
  const file = absolute && shownPath(absolute);
  const blame = (e: unknown): never => {
    const line = absolute && ((e as Error)?.stack ?? '').split('\n').find((frame) => frame.includes(absolute));
    const where = line?.match(/:(\d+):(\d+)\)?\s*$/);
    throw new UsageError(
      `property ${id} of ${file ? `pack module ${file}` : `pack ${packName}`}: drawing a case threw: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}${where ? ` (at ${file}:${where[1]}:${where[2]})` : ''}; fix the property's cases (an empty list given to fc.constantFrom, say)`,
    );
  };
  let inner: fc.Arbitrary<T>;
  try {
    inner = cases();
  } catch (e) {
    return blame(e);
  }
  // The pack's fast-check may be another copy than policyfuzz's (a project's own install).
  boundFiltersOf(fc.constant(0));
  boundFiltersOf(inner);
  return new (class extends fc.Arbitrary<T> {
    generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
      drawingPackCase = true;
      try {
        return inner.generate(mrng, biasFactor);
      } catch (e) {
        return blame(e);
      } finally {
        drawingPackCase = false;
      }
    }
    canShrinkWithoutContext(value: unknown): value is T {
      return inner.canShrinkWithoutContext(value);
    }
    shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
      return inner.shrink(value, context);
    }
  })();
}

/**
 * How many values in a row a `.filter()` of a pack may reject while one case is drawn. fast-check's
 * filter draws until its predicate accepts, so one that accepts nothing (`.filter((r) => !taken(r))`
 * once every value is taken) never returns: the run stalled at 0 cases, past its time budget and
 * deaf to Ctrl-C, with nothing printed. Past this many, the draw stops with the predicate named.
 */
export const FILTER_REJECTIONS_IN_A_ROW = 10_000;

let drawingPackCase = false;

/** A predicate that accepted none of the values drawn for it. */
class StarvedFilter extends Error {
  constructor(refinement: unknown) {
    const source = String(refinement).replace(/\s+/g, ' ');
    super(`a .filter() accepted none of ${FILTER_REJECTIONS_IN_A_ROW} values in a row: ${source.length > 120 ? `${source.slice(0, 117)}...` : source} (draw from what it would accept instead, or guard the case where nothing is left)`);
  }
}

const boundedFilterPrototypes = new WeakSet<object>();

/**
 * Bounds every filter of the fast-check copy `sample` comes from, while a pack's case is drawn only:
 * policyfuzz's own generators, and shrinking, keep fast-check's loop. Relies on fast-check 4's
 * FilterArbitrary (`arb`, `refinement`, `refinementOnValue`); another shape is left as it is.
 */
function boundFiltersOf(sample: fc.Arbitrary<unknown>): void {
  const proto = Object.getPrototypeOf(sample.filter(() => true)) as {
    generate: (this: any, mrng: fc.Random, biasFactor: number | undefined) => fc.Value<unknown>;
    refinementOnValue?: unknown;
  };
  if (boundedFilterPrototypes.has(proto) || typeof proto.refinementOnValue !== 'function') return;
  boundedFilterPrototypes.add(proto);
  const unbounded = proto.generate;
  type Filter = { arb: fc.Arbitrary<unknown>; refinement: unknown; refinementOnValue: (v: fc.Value<unknown>) => boolean };
  proto.generate = function (this: Filter, mrng: fc.Random, biasFactor: number | undefined) {
    if (!drawingPackCase) return unbounded.call(this, mrng, biasFactor);
    for (let tries = 0; tries < FILTER_REJECTIONS_IN_A_ROW; tries++) {
      const drawn = this.arb.generate(mrng, biasFactor);
      if (this.refinementOnValue(drawn)) return drawn;
    }
    throw new StarvedFilter(this.refinement);
  };
}
