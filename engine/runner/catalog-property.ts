/**
 * A catalog property: a rule checked once per run against the database's catalog rather than
 * case by case (rules 15 and 16: who may execute every function, which grants every table
 * holds). Reported as a PropertyResult like a data property: `cases` is the number of catalog
 * objects checked, counts.allowed the grants the model expects and found, counts.rejected the
 * grants it expects absent and found absent; any finding fails the property.
 */
import type pg from 'pg';
import { unexposedFunctionKey } from './applicability.ts';
import type { Environment } from './environment.ts';
import type { PropertyResult } from './result.ts';
import type { CatalogComparison } from '../checker/catalog.ts';
import type { TargetMapping } from '../mapping/mapping.ts';
import type { TableModel } from '../model/table-model.ts';
import type { FunctionModel, PrivateFunction } from '../model/function-model.ts';

/** What a catalog check may need of the target beyond its database. */
export interface CatalogContext {
  /** The schemas PostgREST exposes (a project's config.toml, else the reference's). */
  exposedSchemas: string[];
  /** PostgREST's db-extra-search-path: on every request's search_path after the schema it targets. */
  extraSearchPath: string[];
  /** The target's names for the model's tables and functions, and its conventions (the pack's and the config's mapping). */
  mapping?: TargetMapping;
  /**
   * The run's model (the pack's, with what `extendPack` added): the tables and functions the
   * catalog is compared with. Reading the bundled reference's instead made every table a pack
   * added "not in the model".
   */
  model: CatalogModel;
  /** Where the target keeps a model function only outside the API's schemas (`schema.name`), by the data half's lookup (applicability.ts unexposedFunctionKey). */
  outsideApi?: (name: string) => string | undefined;
}

/** Of a pack's model (engine/pack.ts PackModel), what a catalog check compares the catalog with. */
export interface CatalogModel {
  tables: Record<string, TableModel>;
  functions: Record<string, FunctionModel>;
  privateFunctions?: PrivateFunction[];
}

export interface CatalogProperty<S = any> {
  id: string;
  /** The pack's rule number; 0 for the engine's own (the security lints). */
  rule: number;
  title: string;
  /** `details`: the findings as data, for the reports (summary.json's case, one SARIF result each). */
  check: (client: pg.Client, settings: S, context: CatalogContext) => Promise<CatalogComparison & { objects: number; details?: unknown[] }>;
}

export async function runCatalogProperty(env: Environment, property: CatalogProperty, options: { seed: number; settings: unknown; model: CatalogModel }): Promise<PropertyResult> {
  const started = Date.now();
  const worker = env.workers[0];
  await worker.tx.flush();
  const base = { id: property.id, title: `${property.title} (catalog)`, area: 'data' as const, seed: options.seed };
  try {
    const r = await property.check(worker.client, options.settings, { exposedSchemas: env.cache.exposedSchemas, extraSearchPath: env.cache.extraSearchPath, mapping: worker.tx.fixturePlan.mapping, model: options.model, outsideApi: unexposedFunctionKey(env.cache, worker.tx.fixturePlan.mapping) });
    const readings = Object.entries(r.readings ?? {}).sort(([a], [b]) => a.localeCompare(b));
    const named = readings.length ? { readings: Object.fromEntries(readings.map(([k, v]) => [k, v.length])), note: readingsNote(readings) } : {};
    const result = { ...base, cases: r.objects, counts: { allowed: r.granted, filtered: 0, rejected: r.withheld, errored: 0 }, durationMs: Date.now() - started, ...named };
    if (r.findings.length === 0) return { ...result, status: 'passed' };
    const message = `${r.findings.length} catalog finding(s):\n  ${r.findings.join('\n  ')}${named.note ? `\n  (${named.note})` : ''}`;
    return { ...result, status: 'failed', failure: { seed: options.seed, path: '', counterexample: r.details ?? r.findings, message } };
  } catch (e) {
    return { ...base, cases: 0, counts: {}, durationMs: Date.now() - started, status: 'error', note: `harness error: ${(e as Error).message}` };
  }
}

/** The catalog objects that held only by a secure reading, named with the reading: the run says which it took. */
function readingsNote(readings: [string, string[]][]): string {
  return `accepted as secure readings: ${readings.map(([reading, objects]) => `${reading} (${objects.length}: ${objects.join(', ')})`).join('; ')}`;
}
