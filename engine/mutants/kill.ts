/**
 * Runs properties against each mutant, on a fresh database built from the migrations plus the
 * mutant, and records which properties killed it and how long the first kill took.
 */
import type { MigrationFile } from '../db/migrations.ts';
import type { DatabaseServer } from '../db/providers/server.ts';
import type { DataProperty } from '../runner/data-property.ts';
import { runCatalogProperty, type CatalogProperty } from '../runner/catalog-property.ts';
import { openEnvironment } from '../runner/environment.ts';
import { runDataProperty } from '../runner/run-data-property.ts';
import { fitToTarget } from '../runner/applicability.ts';
import type { FixturePlan } from '../fixtures.ts';
import type { Oracle } from '../pack.ts';
import type { PropertyResult } from '../runner/result.ts';
import { applyEdits, extraSql, type Mutant } from './mutant-files.ts';

export interface KillResult {
  mutant: string;
  bug: string;
  /** property id → killed? */
  verdicts: Record<string, 'killed' | 'survived' | 'error'>;
  killedBy: string[];
  /** Time from the start of the first property run until the first kill (ms). */
  timeToKillMs?: number;
  notes: string[];
}

export interface KillOptions {
  server: DatabaseServer;
  migrations: MigrationFile[];
  properties: DataProperty[];
  oracle: Oracle;
  seed: number;
  runs: number;
  /** Catalog properties (rules 15, 16): checked before the data properties, when the mutant names them. */
  catalogProperties?: CatalogProperty[];
  /** Run every property on every mutant (the kill matrix) or only the ones the mutant names. */
  all?: boolean;
  /** A project's own schema (a config): its compatibility switch and fixture plan. */
  supabaseCompat?: boolean;
  fixtures?: Omit<FixturePlan, 'shapes'>;
  /** Every data property's result on the mutant (a measurement of its findings, e.g. shrunk sizes). */
  onResult?: (mutant: Mutant, result: PropertyResult) => void;
}

export async function killMutant(mutant: Mutant, options: KillOptions): Promise<KillResult> {
  const env = await openEnvironment({ server: options.server, migrations: applyEdits(mutant, options.migrations), extra: extraSql(mutant), workers: 1, supabaseCompat: options.supabaseCompat, fixtures: options.fixtures });
  const result: KillResult = { mutant: mutant.name, bug: mutant.bug, verdicts: {}, killedBy: [], notes: [] };
  try {
    const targets = options.all ? options.properties : options.properties.filter((p) => mutant.rules.includes(p.id));
    const started = Date.now();
    const catalog = (options.catalogProperties ?? []).filter((p) => options.all || mutant.rules.includes(p.id));
    // One catalog query each: checked first, it kills a catalog defect in milliseconds.
    for (const property of catalog) {
      const r = await runCatalogProperty(env, property, { seed: options.seed, settings: options.oracle.settings });
      const key = `${property.id}:catalog`;
      if (r.status === 'failed') {
        result.verdicts[key] = 'killed';
        result.killedBy.push(key);
        result.timeToKillMs ??= Date.now() - started;
        if (!options.all) break;
      } else if (r.status === 'error') {
        result.verdicts[key] = 'error';
        result.notes.push(`${key}: ${r.note}`);
      } else {
        result.verdicts[key] = 'survived';
      }
    }
    for (const listed of result.killedBy.length && !options.all ? [] : targets) {
      // Narrowed to the target's tables; a property the target has no tables for is skipped.
      const { property, missing } = fitToTarget(listed, env.cache, options.fixtures?.mapping);
      if (missing.length) continue;
      const before = Date.now();
      const r = await runDataProperty(env, property, { seed: options.seed, runs: options.runs, oracle: options.oracle, stopAtFirst: true });
      options.onResult?.(mutant, r);
      if (r.status === 'failed') {
        result.verdicts[property.id] = 'killed';
        result.killedBy.push(property.id);
        // Time to kill: until the first disagreement, not including shrinking it.
        result.timeToKillMs ??= before - started + (r.firstFailureMs ?? Date.now() - before);
        if (!options.all) break;
      } else if (r.status === 'error') {
        result.verdicts[property.id] = 'error';
        result.notes.push(`${property.id}: ${r.note}`);
      } else {
        result.verdicts[property.id] = 'survived';
      }
    }
  } finally {
    await env.close();
  }
  return result;
}
