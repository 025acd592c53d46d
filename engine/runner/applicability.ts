/**
 * A project may not have every table of the spec. A property whose tables, views or functions
 * are missing from the target is reported as not applicable — never as passing.
 */
import type { SchemaCache } from '../executor/schema-cache.ts';
import { qualifiedName } from '../executor/schema-cache.ts';
import type { DataProperty } from './data-property.ts';
import type { PropertyResult } from './result.ts';

function cacheKey(name: string): string {
  return name.includes('.') ? name : qualifiedName('public', name);
}

/** What a property needs that the schema lacks. */
export function missingObjects(property: Pick<DataProperty, 'tables' | 'functions'>, cache: SchemaCache): string[] {
  const tables = property.tables.filter((t) => !cache.tables.has(cacheKey(t)));
  const functions = (property.functions ?? []).filter((f) => !cache.functions.has(cacheKey(f)));
  return [...tables, ...functions];
}

/**
 * The property as it runs on this target: narrowed to the tables the target has (when the
 * property is generic over several), or what is missing when it cannot run at all.
 */
export function fitToTarget(property: DataProperty, cache: SchemaCache): { property: DataProperty; missing: string[] } {
  const narrowed = property.narrow?.((t) => cache.tables.has(cacheKey(t)));
  const fitted = narrowed ?? property;
  return { property: fitted, missing: missingObjects(fitted, cache) };
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
