/**
 * A project may not have every table of the spec. Applicability is decided per object: a
 * property generic over several tables or drawing its cases from several parts keeps the parts
 * whose tables and functions the target has (a missing function removes only the cases that
 * call it); a property left with nothing is reported as not applicable — never as passing.
 * Names are the model's; a mapping says what the target calls them.
 */
import type { SchemaCache } from '../executor/schema-cache.ts';
import { qualifiedName } from '../executor/schema-cache.ts';
import { presenceUnder, sqlRoutedFunctionKey, sqlRoutedTables, targetFunction, targetTable, type TargetMapping } from '../mapping/mapping.ts';
import type { DataProperty } from './data-property.ts';
import { UsageError } from '../errors.ts';
import { nearestNames } from '../nearest-names.ts';
import type { PropertyResult } from './result.ts';

function cacheKey(name: string): string {
  return name.includes('.') ? name : qualifiedName('public', name);
}

/** Whether the target has a table (or view) or function of this model name. */
export function targetHas(cache: SchemaCache, mapping?: TargetMapping, countUnexposed = false): (name: string) => boolean {
  const sqlRouted = sqlRoutedTables(mapping);
  const unexposed = countUnexposed ? unexposedFunctionSchema(cache, mapping) : () => undefined;
  const onTarget = presenceUnder(mapping, (name) => {
    const key = cacheKey(name);
    return (
      cache.tables.has(key) ||
      cache.functions.has(key) ||
      (sqlRouted.has(key) && cache.outsideApi.has(key)) ||
      (sqlRouted.has(sqlRoutedFunctionKey(key)) && (cache.outsideApiFunctions?.has(key) ?? false))
    );
  });
  return (name) => onTarget(name) || unexposed(name) !== undefined;
}

/**
 * Where the target keeps a model function (model name) only outside the API's schemas, by the
 * target's name for it, or undefined: one the API exposes or a mapping sends as SQL is reachable.
 */
export function unexposedFunctionSchema(cache: SchemaCache, mapping?: TargetMapping): (name: string) => string | undefined {
  const keyOf = unexposedFunctionKey(cache, mapping);
  return (name) => keyOf(name)?.split('.')[0];
}

/** The same lookup, giving the function found (`schema.name`): R15's catalog half judges that one as the model's. */
export function unexposedFunctionKey(cache: SchemaCache, mapping?: TargetMapping): (name: string) => string | undefined {
  const sqlRouted = sqlRoutedTables(mapping);
  return (name) => {
    const target = mapping ? targetFunction(mapping, name) : name;
    const key = cacheKey(target);
    if (cache.functions.has(key) || sqlRouted.has(sqlRoutedFunctionKey(key))) return undefined;
    const bare = key.split('.').pop()!;
    return [...(cache.outsideApiFunctions?.keys() ?? [])].find((k) => (target.includes('.') ? k === key : k.split('.').pop() === bare));
  };
}

/**
 * What a property needs that the schema lacks. A table the target has outside the API's schemas
 * is named with the setting that sends it as SQL, rather than called absent.
 */
export function missingObjects(property: Pick<DataProperty, 'tables' | 'functions' | 'refusedOutsideApi'>, cache: SchemaCache, mapping?: TargetMapping): string[] {
  const has = targetHas(cache, mapping, property.refusedOutsideApi);
  return [...property.tables, ...(property.functions ?? [])]
    .filter((name) => !has(name))
    .map((name) => {
      const isFunction = (property.functions ?? []).includes(name) && !property.tables.includes(name);
      const target = !mapping ? name : isFunction ? targetFunction(mapping, name) : targetTable(mapping, name);
      if (!(isFunction ? cache.outsideApiFunctions : cache.outsideApi)?.has(cacheKey(target))) return name;
      const schema = cacheKey(target).split('.')[0];
      return `${name} the API reaches (it is in schema ${schema}, which the API does not expose: set mapping.${isFunction ? 'functions' : 'tables'}.${name}.via to "sql" to send its requests as SQL under the caller's role)`;
    });
}

/**
 * The property as it runs on this target: narrowed to the tables and functions the target has
 * (when the property is generic over several), or what is missing when it cannot run at all.
 * `ran` lists the parts kept when some were left out (for the summary).
 */
export function fitToTarget(property: DataProperty, cache: SchemaCache, mapping?: TargetMapping): { property: DataProperty; missing: string[]; leftOut: string[] } {
  const has = targetHas(cache, mapping, property.refusedOutsideApi);
  const narrowed = property.narrow?.(has);
  const fitted = narrowed ?? property;
  const missing = missingObjects(fitted, cache, mapping);
  const leftOut = narrowed ? missingObjects(property, cache, mapping) : [];
  return { property: fitted, missing, leftOut };
}

/** The summary's note for a property that ran only in part. */
export function partialNote(leftOut: string[]): string | undefined {
  return leftOut.length ? `ran without the parts that need ${leftOut.join(', ')} (not in the target)` : undefined;
}

export function notApplicable(property: DataProperty, missing: string[], seed: number): PropertyResult {
  return {
    id: property.id,
    title: property.title,
    area: 'data',
    status: 'not-applicable',
    cases: 0,
    counts: {},
    durationMs: 0,
    seed,
    note: `not applicable: the target has no ${missing.join(', ')}`,
  };
}

/** A name the mapping gives that the target's catalog lacks (a typo, not a table the target leaves out). */
export interface MissingMappedName {
  /** The mapping's key: `mapping.tables.users.name`, `mapping.tables.users.columns.phone`, `mapping.functions.f.name`. */
  key: string;
  name: string;
  /** The target's names nearest it. */
  nearest: string[];
}

/**
 * The names a mapping gives (tables, their columns, functions) that the target has in no schema.
 * A model table the mapping does not rename may be absent (the rule is then not applicable); one
 * it renames says the target has it, so a missing name is a mistake to name, not an N/A.
 */
export function mappedNamesMissing(cache: SchemaCache, mapping: TargetMapping | undefined): MissingMappedName[] {
  if (!mapping) return [];
  const relations = new Map([...cache.outsideApi, ...cache.tables]);
  const functions = new Map([...(cache.outsideApiFunctions ?? []), ...cache.functions]);
  // Qualified: that schema's; bare: any schema's (which one the API reaches is applicability's to say).
  const find = <T>(all: Map<string, T>, name: string): T | undefined =>
    name.includes('.') ? all.get(name) : all.get(cacheKey(name)) ?? [...all].find(([k]) => k.split('.').pop() === name)?.[1];
  const shown = (all: Map<string, unknown>, name: string) => [...all.keys()].map((k) => (name.includes('.') || !k.startsWith('public.') ? k : k.slice('public.'.length)));
  const out: MissingMappedName[] = [];
  for (const [model, t] of Object.entries(mapping.tables ?? {})) {
    const name = targetTable(mapping, model);
    const columns = find(relations, name);
    if (!columns) {
      if (t.name !== undefined) out.push({ key: `mapping.tables.${model}.name`, name, nearest: nearestNames(name, shown(relations, name)) });
      continue;
    }
    const has = new Set(columns.map((c) => c.name));
    for (const [column, target] of Object.entries(t.columns ?? {})) {
      if (target !== null && !has.has(target)) out.push({ key: `mapping.tables.${model}.columns.${column}`, name: target, nearest: nearestNames(target, has) });
    }
  }
  for (const [model, f] of Object.entries(mapping.functions ?? {})) {
    if (f.name !== undefined && !find(functions, f.name)) out.push({ key: `mapping.functions.${model}.name`, name: f.name, nearest: nearestNames(f.name, shown(functions, f.name)) });
  }
  return out;
}

/** The one-line error for names a mapping gives that the target lacks; `where`: the config (or pack) the mapping comes from. */
export function missingMappedNamesError(missing: readonly MissingMappedName[], where: string): UsageError {
  const each = missing.map((m) => `${m.key} names ${m.name}, which the target does not have${m.nearest.length ? ` (nearest: ${m.nearest.join(', ')})` : ''}`);
  return new UsageError(`${where}: ${each.join('; ')}: fix the name, or leave the key out where the target lacks the thing itself`);
}
