/**
 * What a run is aimed at: the bundled reference database, or a project described by its
 * policyfuzz config (several migration folders, model settings, rules, fixture plan).
 */
import { loadMigrationFolder, type MigrationFile } from '../db/migrations.ts';
import type { FixturePlan } from '../fixtures.ts';
import { oracleOf, type Oracle, type Pack } from '../pack.ts';
import { findConfig, loadConfig, type PolicyfuzzConfig } from './config-file.ts';
import { MappingSchema, mergeMappings } from '../mapping/schema.ts';
import type { TargetMapping } from '../mapping/mapping.ts';
import { UsageError } from '../errors.ts';

/** The pack's mapping refined by the config's, checked as one (a pack's is typed, not validated). */
function targetMapping(pack: Pack, config: PolicyfuzzConfig | undefined): TargetMapping | undefined {
  const merged = mergeMappings(pack.mapping, config?.mapping);
  if (!merged) return undefined;
  const checked = MappingSchema.safeParse(merged);
  if (!checked.success) {
    const where = config ? `the mapping of pack ${pack.name} with ${config.file}` : `the mapping of pack ${pack.name}`;
    throw new UsageError(`${where} is not valid:\n${checked.error.issues.map((i) => `  mapping.${i.path.join('.')}: ${i.message}`).join('\n')}`);
  }
  return merged;
}

export interface Target {
  /** How replay lines name it: `--migrations <dir>` or `--config <file>`. */
  cliArgs: string;
  label: string;
  migrations: MigrationFile[];
  /** The pack's model with the target's settings. */
  oracle: Oracle;
  supabaseCompat: boolean;
  fixtures?: Omit<FixturePlan, 'shapes'>;
  config?: PolicyfuzzConfig;
}

export function loadConfiguredMigrations(config: PolicyfuzzConfig): MigrationFile[] {
  return config.migrationDirs.flatMap((dir) => loadMigrationFolder(dir, config.skip));
}

/** Keeps the property ids a config's rules allow. */
export function ruleAllowed(config: PolicyfuzzConfig | undefined, id: string): boolean {
  if (!config) return true;
  const base = id.replace(/:.*$/, '');
  // `R16:catalog` names the catalog half alone; `R16` both halves.
  if (config.rules.exclude.includes(base) || config.rules.exclude.includes(id)) return false;
  return !config.rules.include || config.rules.include.includes(base);
}

export async function resolveTarget(pack: Pack, options: { config?: string; migrations: string; explicitMigrations?: boolean }): Promise<Target> {
  const file = options.config ?? (options.explicitMigrations ? undefined : findConfig());
  if (!file) {
    return {
      cliArgs: `--migrations ${options.migrations}`,
      label: options.migrations,
      migrations: loadMigrationFolder(options.migrations),
      oracle: oracleOf(pack),
      supabaseCompat: true,
      // A project pack's own mapping applies with or without a config.
      ...(pack.mapping ? { fixtures: { users: 'direct' as const, bypassTriggers: false, mapping: targetMapping(pack, undefined)! } } : {}),
    };
  }
  const config = await loadConfig(file, pack);
  const mapping = targetMapping(pack, config);
  return {
    cliArgs: `--config ${file}`,
    label: `${config.migrationDirs.join(', ')} (config ${file})`,
    migrations: loadConfiguredMigrations(config),
    oracle: oracleOf(pack, config.model),
    supabaseCompat: config.supabaseCompat,
    fixtures: {
      users: config.fixtures.users,
      bypassTriggers: config.fixtures.bypassTriggers,
      ...(config.fixtures.emptyTables ? { emptyTables: config.fixtures.emptyTables } : {}),
      ...(mapping ? { mapping } : {}),
    },
    config,
  };
}
