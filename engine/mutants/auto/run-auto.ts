/**
 * `policyfuzz mutants --auto`: derive variants from the target's own catalog, run the
 * properties that concern each mutated object until one kills it, and explain survivors.
 */
import type { MigrationFile } from '../../db/migrations.ts';
import type { DatabaseServer } from '../../db/providers/server.ts';
import type { DataProperty } from '../../runner/data-property.ts';
import { runCatalogProperty, type CatalogProperty } from '../../runner/catalog-property.ts';
import { openEnvironment } from '../../runner/environment.ts';
import { fitToTarget } from '../../runner/applicability.ts';
import { runDataProperty } from '../../runner/run-data-property.ts';
import type { Oracle } from '../../pack.ts';
import type { FixturePlan } from '../../fixtures.ts';
import type { TargetMapping } from '../../mapping/mapping.ts';
import { touches } from '../../config/changed-since.ts';
import { killMutant, type KillResult } from '../kill.ts';
import { readCatalog } from './catalog.ts';
import { deriveMutants, type AutoMutant, type AutoMutationKind } from './derive.ts';

export const AUTO_MUTANT_SCHEMAS = ['public', 'passport', 'private'];

export interface AutoKillResult extends KillResult {
  kind: AutoMutant['kind'];
  target: string;
  /** For a survivor: why it may have survived (`equivalent: …` ones were not run). */
  reason?: string;
}

/** The kill rate counts only variants that can change behaviour. */
export function autoKillRate(results: AutoKillResult[]): { killed: number; total: number; equivalent: number } {
  const equivalent = results.filter((r) => r.reason?.startsWith('equivalent:')).length;
  return { killed: results.filter((r) => r.killedBy.length > 0).length, total: results.length - equivalent, equivalent };
}

/** The rule a kind of variant breaks: its property runs first among those naming the object, so the kill comes fast. */
const OWNING_RULE: Partial<Record<AutoMutant['kind'], number>> = { 'equality-to-ilike': 14 };

/**
 * Properties whose tables or functions name the mutated object, or a table whose policies call it
 * (the owning rule's first); all of them when none do. The variant names the target's objects; a
 * mapping says which model names they stand for.
 */
export function propertiesFor(mutant: AutoMutant, properties: DataProperty[], mapping?: TargetMapping): { list: DataProperty[]; covered: boolean } {
  const object = mutant.target.replace(/\(.*$/, '');
  const names = [object, object.replace(/^[a-z_]+\./, '')];
  const covering = properties.filter((p) => touches(p, names, mapping) || touches({ tables: p.tables }, mutant.calledByPoliciesOf ?? [], mapping));
  const owner = OWNING_RULE[mutant.kind];
  const ordered = [...covering.filter((p) => p.rule === owner), ...covering.filter((p) => p.rule !== owner)];
  return covering.length ? { list: ordered, covered: true } : { list: properties, covered: false };
}

export interface AutoOptions {
  server: DatabaseServer;
  migrations: MigrationFile[];
  properties: DataProperty[];
  oracle: Oracle;
  seed: number;
  runs: number;
  onResult?: (r: AutoKillResult) => void;
  /** A property left out because it already fails on the unmutated target. */
  onExcluded?: (propertyId: string, why: string) => void;
  /** A property left out because the target lacks what it needs (model names). */
  onNotApplicable?: (propertyId: string, missing: string[]) => void;
  /** A project's own schema (a config): its compatibility switch and fixture plan. */
  supabaseCompat?: boolean;
  fixtures?: Omit<FixturePlan, 'shapes'>;
  /**
   * Catalog properties (R15's function grants): checked first on a drop-revoke variant, which
   * they kill in milliseconds. Only those that pass on the unmutated target are used.
   */
  catalogProperties?: CatalogProperty[];
  /** Only variants of these kinds (all when absent). */
  kinds?: readonly AutoMutationKind[];
}

export async function runAutoMutants(options: AutoOptions): Promise<AutoKillResult[]> {
  const base = await openEnvironment({ server: options.server, migrations: options.migrations, workers: 1, supabaseCompat: options.supabaseCompat, fixtures: options.fixtures });
  let mutants: AutoMutant[];
  const grantChecks: CatalogProperty[] = [];
  // A property that already fails on the unmutated target would "kill" every variant: leave it out.
  const holding: DataProperty[] = [];
  try {
    mutants = deriveMutants(await readCatalog(base.workers[0].client, AUTO_MUTANT_SCHEMAS)).filter((m) => !options.kinds || options.kinds.includes(m.kind));
    for (const listed of options.properties) {
      const { property, missing } = fitToTarget(listed, base.cache, options.fixtures?.mapping);
      if (missing.length) {
        options.onNotApplicable?.(listed.id, missing);
        continue;
      }
      const r = await runDataProperty(base, property, { seed: options.seed, runs: options.runs, oracle: options.oracle, stopAtFirst: true });
      if (r.status === 'passed') holding.push(listed);
      else options.onExcluded?.(listed.id, r.failure?.message ?? r.note ?? r.status);
    }
    for (const property of (options.catalogProperties ?? []).filter((p) => p.rule === 15)) {
      if ((await runCatalogProperty(base, property, { seed: options.seed, settings: options.oracle.settings })).status === 'passed') grantChecks.push(property);
    }
  } finally {
    await base.close();
  }
  const results: AutoKillResult[] = [];
  for (const mutant of mutants) {
    if (mutant.equivalent) {
      const result: AutoKillResult = { mutant: mutant.name, bug: mutant.description, verdicts: {}, killedBy: [], notes: [], kind: mutant.kind, target: mutant.target, reason: `equivalent: ${mutant.equivalent}` };
      results.push(result);
      options.onResult?.(result);
      continue;
    }
    const { list, covered } = propertiesFor(mutant, holding, options.fixtures?.mapping);
    const catalog = mutant.kind === 'drop-revoke' ? grantChecks : [];
    const kill = await killMutant(
      { name: mutant.name, bug: mutant.description, rules: [...new Set([...catalog.map((p) => p.id), ...list.map((p) => p.id)])], file: { name: `${mutant.name}.sql`, path: `(auto) ${mutant.name}`, sql: mutant.sql }, edits: [] },
      {
        server: options.server,
        migrations: options.migrations,
        properties: list,
        catalogProperties: catalog,
        oracle: options.oracle,
        seed: options.seed,
        runs: options.runs,
        supabaseCompat: options.supabaseCompat,
        fixtures: options.fixtures,
      },
    );
    const result: AutoKillResult = {
      ...kill,
      kind: mutant.kind,
      target: mutant.target,
      ...(kill.killedBy.length
        ? {}
        : {
            reason: covered
              ? `survived ${list.map((p) => p.id).join(', ')}: an equivalent variant, or a gap in those properties`
              : `gap: no property names ${mutant.target}`,
          }),
    };
    results.push(result);
    options.onResult?.(result);
  }
  return results;
}
