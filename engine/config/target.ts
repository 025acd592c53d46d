/**
 * What a run is aimed at: the bundled reference database, or a project described by its
 * policyfuzz config (several migration folders, model settings, rules, fixture plan).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadMigrationFolder, migrationsDigest, type MigrationFile } from '../db/migrations.ts';
import type { FixturePlan } from '../target/fixtures.ts';
import { oracleOf, PARSED_ONCE, type Oracle, type Pack, type PackSource } from '../pack.ts';
import { loadConfig, parseConfig, type PolicyfuzzConfig } from './config-file.ts';
import { findConfig, packModuleOf, readChosenConfig, type ChosenConfig, type TargetChoice } from './config-shape.ts';
import { loadPackModule } from './pack-module.ts';
import { apiSchemasOf, SUPABASE_MIGRATIONS, type ApiSchemas } from './supabase-project.ts';
import { MappingSchema, mergeMappings } from '../mapping/schema.ts';
import { withAnswerTables } from '../mapping/answer-tables.ts';
import type { TargetMapping } from '../mapping/mapping.ts';
import { UsageError } from '../errors.ts';
import { ENGINE_PROPERTY_IDS } from '../property-id.ts';
import { shownPath } from './shown-path.ts';

/** The pack's mapping refined by the config's (and a front-end's own), checked as one (a pack's is typed, not validated). */
function targetMapping(pack: Pack, config: Pick<PolicyfuzzConfig, 'mapping' | 'file'> | undefined, base: TargetMapping | undefined = pack.mapping): TargetMapping | undefined {
  const given = mergeMappings(base, config?.mapping);
  if (!given) return undefined;
  const merged = withAnswerTables(given, pack.model.functions);
  const checked = MappingSchema.safeParse(merged);
  if (!checked.success) {
    const where = config ? `the mapping of pack ${pack.name} with ${config.file}` : `the mapping of pack ${pack.name}`;
    throw new UsageError(`${where} is not valid:\n${checked.error.issues.map((i) => `  mapping.${i.path.join('.')}: ${i.message}`).join('\n')}`);
  }
  for (const [fn, m] of Object.entries(merged.functions ?? {})) {
    const fixed = m.extraColumns?.length ? pack.model.functions[fn]?.fixedColumns : undefined;
    if (fixed) throw new UsageError(`mapping.functions.${fn}.extraColumns: ${fn} returns a fixed set of columns (${fixed}); a column beyond them is a finding, not a shape: remove extraColumns`);
  }
  return merged;
}

/** What a saved failure records of its target, as absolute paths, so replay rebuilds the same (engine/failures/schema.ts). */
export interface RecordedTarget {
  config: string | null;
  migrations: string | string[] | null;
  /** Migration files left out by `--skip` (a config's own `skip` is in the config). */
  skip?: string[];
  /** The pack module given with `--pack` (a config's `pack` is in the config). */
  pack?: string;
}

export interface Target {
  /** How replay lines name it: `--migrations <dir>` or `--config <file>`. */
  cliArgs: string;
  label: string;
  migrations: MigrationFile[];
  /** The folders they come from (absolute). */
  migrationDirs: string[];
  /** A project's own target (a config, its own migrations or pack), not the bundled reference. */
  project: boolean;
  /** What PostgREST exposes, from a Supabase project's config.toml next to the migrations; absent: the defaults. */
  api?: ApiSchemas;
  /** PostgREST's db-max-rows: the config's `postgrest.maxRows`, else config.toml's `[api] max_rows`; absent: none. */
  maxRows?: number;
  /** Where a signed-in token's `app_metadata` comes from: the config's `tokens.appMetadata` (config-file.ts); absent: the pack's drawn claims. */
  tokenAppMetadata?: 'auth.users';
  recorded: RecordedTarget;
  /** The pack's model with the target's settings. */
  oracle: Oracle;
  supabaseCompat: boolean;
  fixtures?: Omit<FixturePlan, 'shapes'>;
  config?: PolicyfuzzConfig;
  /** How long one migration statement may run (`--migration-timeout`, else the config's `migrationTimeout`; absent: the default). */
  migrationTimeoutMs?: number;
}

export function loadConfiguredMigrations(config: PolicyfuzzConfig, skip: readonly string[] = []): MigrationFile[] {
  return config.migrationDirs.flatMap((dir) => loadMigrationFolder(dir, [...config.skip, ...skip]));
}

/** Keeps the property ids a config's rules allow. */
export function ruleAllowed(config: PolicyfuzzConfig | undefined, id: string): boolean {
  if (!config) return true;
  const base = id.replace(/:.*$/, '');
  // `R16:catalog` names the catalog half alone; `R16` both halves.
  if (config.rules.exclude.includes(base) || config.rules.exclude.includes(id)) return false;
  return !config.rules.include || config.rules.include.includes(base) || ENGINE_PROPERTY_IDS.includes(base);
}

export interface TargetOptions {
  /** A config file, or the config's object itself (its folders relative to the current folder). */
  config?: string | InlineConfig;
  /** One folder or several, applied in order. */
  migrations: string | string[];
  /** The folders were named (not the pack's default): a config in the current folder is not looked for. */
  explicitMigrations?: boolean;
  /** Migration file names left out (besides a config's `skip`). */
  skip?: string[];
  /** The pack came from this module (`--pack`): recorded so a replay loads it again. */
  packModule?: string;
  /** `--migration-timeout`: over the config's `migrationTimeout`. */
  migrationTimeoutMs?: number;
}

/** A config given as an object (policyfuzz/vitest's `config`), named in messages by `label`. */
export interface InlineConfig {
  object: unknown;
  label: string;
}

export async function resolveTarget(pack: Pack, options: TargetOptions): Promise<Target> {
  const file = options.config ?? (options.explicitMigrations ? undefined : findConfig());
  const skip = options.skip ?? [];
  const extra = { ...(skip.length ? { skip: skip } : {}), ...(options.packModule ? { pack: path.resolve(options.packModule) } : {}) };
  if (!file) {
    const folders = [options.migrations].flat();
    const migrationDirs = folders.map((f) => path.resolve(f));
    const api = apiSchemasOf(migrationDirs);
    return {
      cliArgs: `--migrations ${folders.join(' ')}${skip.length ? ` --skip ${skip.join(' ')}` : ''}${options.packModule ? ` --pack ${options.packModule}` : ''}`,
      label: folders.join(', '),
      migrations: folders.flatMap((f) => loadMigrationFolder(f, skip)),
      migrationDirs,
      project: Boolean(options.explicitMigrations || options.packModule),
      ...(api ? { api } : {}),
      ...(api?.maxRows !== undefined ? { maxRows: api.maxRows } : {}),
      recorded: { config: null, migrations: migrationDirs.length === 1 ? migrationDirs[0] : migrationDirs, ...extra },
      oracle: oracleOf(pack),
      supabaseCompat: true,
      ...(options.migrationTimeoutMs ? { migrationTimeoutMs: options.migrationTimeoutMs } : {}),
      // A project pack's own mapping applies with or without a config. Any project's own
      // migrations are read from their catalog (a fixture plan with shapes): worlds are completed
      // to fit them, and cases they cannot hold are dropped (engine/target/realizable.ts).
      ...(pack.mapping
        ? { fixtures: { users: 'direct' as const, bypassTriggers: false, mapping: targetMapping(pack, undefined)! } }
        : options.explicitMigrations || options.packModule
          ? { fixtures: { users: 'direct' as const, bypassTriggers: false } }
          : {}),
    };
  }
  const config = typeof file === 'string' ? await loadConfig(file, pack) : parseConfig(file.object, file.label, pack);
  const mapping = targetMapping(pack, config);
  const api = apiSchemasOf(config.migrationDirs);
  return {
    cliArgs: `--config ${config.file}${skip.length ? ` --skip ${skip.join(' ')}` : ''}${options.packModule ? ` --pack ${options.packModule}` : ''}`,
    label: `${config.migrationDirs.join(', ')} (config ${config.file})`,
    migrations: loadConfiguredMigrations(config, skip),
    migrationDirs: config.migrationDirs,
    project: true,
    ...(api ? { api } : {}),
    ...((config.postgrest?.maxRows ?? api?.maxRows) !== undefined ? { maxRows: config.postgrest?.maxRows ?? api?.maxRows } : {}),
    ...(config.tokens?.appMetadata ? { tokenAppMetadata: config.tokens.appMetadata } : {}),
    recorded: typeof file === 'string' ? { config: path.resolve(file), migrations: null, ...extra } : { config: null, migrations: config.migrationDirs, ...extra },
    oracle: oracleOf(pack, config.model),
    supabaseCompat: config.supabaseCompat,
    ...(options.migrationTimeoutMs || config.migrationTimeout ? { migrationTimeoutMs: options.migrationTimeoutMs ?? config.migrationTimeout! * 1000 } : {}),
    fixtures: {
      users: config.fixtures.users,
      bypassTriggers: config.fixtures.bypassTriggers,
      ...(config.fixtures.emptyTables ? { emptyTables: config.fixtures.emptyTables } : {}),
      ...(config.fixtures.columnsAsRows ? { columnsAsRows: config.fixtures.columnsAsRows } : {}),
      ...(config.fixtures.tenantColumn ? { tenantColumn: config.fixtures.tenantColumn } : {}),
      ...(mapping ? { mapping } : {}),
    },
    config,
  };
}

export type { TargetChoice } from './config-shape.ts';

export interface ChosenTarget {
  pack: Pack;
  target: Target;
  /** The migrations as replay lines and reports name them (the folders, space-separated). */
  migrations: string;
}

/** The pack a command runs: `--pack <module>`, else the config's `pack` (`raw`: the config file as read), else the one the CLI was given. */
export async function choosePack(source: PackSource, configFile: string | undefined, raw: unknown, packOption: string | undefined): Promise<Pack> {
  const configPack = configFile ? packModuleOf(raw, configFile) : undefined;
  return packOption ? loadPackModule(packOption, '--pack') : configPack ? loadPackModule(configPack, `"pack" in ${configFile}`) : source.load();
}

/**
 * The target a command runs on, as the CLI chooses it:
 * 1. `--reference`: the bundled reference database (its pack and migrations);
 * 2. `--config <file>`, or else the policyfuzz.config.* in this folder unless `--migrations` is given;
 * 3. `--migrations <dir…>`;
 * 4. inside a Supabase repository, `supabase/migrations` (its config.toml read for the API schemas);
 * 5. otherwise the pack's own migrations (the bundled reference for the reference pack).
 * The pack is `--pack <module>`, else the config's `pack`, else the one the CLI was given.
 * `config`: the choice's config as readChosenConfig read it, when the front-end read it first
 * (the CLI does, to answer a bad config before it loads this module and the pack).
 */
export async function chooseTarget(source: PackSource, choice: TargetChoice, config?: ChosenConfig): Promise<ChosenTarget> {
  const { file: configFile, raw } = config ?? (await readChosenConfig(choice));
  const pack = await choosePack(source, configFile, raw, choice.pack);
  const packModule = choice.pack ? path.resolve(choice.pack) : undefined;
  if (configFile) {
    parseConfig(raw, configFile, pack); // checked against the pack before anything else runs
    const target = await resolveTarget(pack, { config: configFile, migrations: [], skip: choice.skip, packModule, migrationTimeoutMs: choice.migrationTimeout });
    return { pack, target, migrations: target.migrationDirs.map((d) => shownPath(d)).join(' ') };
  }
  const packFolder = pack.migrations ?? source.migrations;
  const supabase = !choice.reference && !choice.migrations?.length && existsSync(SUPABASE_MIGRATIONS) ? [SUPABASE_MIGRATIONS] : undefined;
  const folders = choice.migrations?.length ? choice.migrations : (supabase ?? (packFolder ? [shownPath(packFolder)] : []));
  if (!folders.length) throw new UsageError(`pack ${pack.name} names no migrations folder: pass --migrations <dir>`);
  // No config: it was looked for above (or --reference / --migrations say not to use one).
  const target = await resolveTarget(pack, { migrations: folders, explicitMigrations: true, skip: choice.skip, packModule, migrationTimeoutMs: choice.migrationTimeout });
  return { pack, target: { ...target, project: Boolean(choice.migrations?.length || supabase || packModule) }, migrations: folders.join(' ') };
}

/**
 * The target a saved failure was found on, as a choice to rebuild it: its config, else its
 * migration folders (with the files it skipped), else the pack's own migrations; with the pack
 * module it was run with. What the command line names instead wins.
 */
export function recordedChoice(recorded: RecordedTarget | undefined, legacyMigrations: string | null, given: TargetChoice, packFolder: string | undefined): TargetChoice {
  const pack = given.pack ?? (recorded?.pack && existsSync(recorded.pack) ? recorded.pack : undefined);
  const withPack = { ...(pack ? { pack } : {}), ...(given.migrationTimeout ? { migrationTimeout: given.migrationTimeout } : {}) };
  if (given.config || given.migrations?.length) return { ...given, ...withPack };
  if (recorded?.config) {
    // Replayed without its config (mapping, settings) the case would meet another target, and pass there.
    if (!existsSync(recorded.config)) throw new UsageError(`this failure was found with the config ${recorded.config}, which is not here (nor where it lay relative to the failure file): replay it with --config <that project's config file>`);
    return { config: recorded.config, skip: given.skip ?? recorded.skip, ...withPack };
  }
  const folders = [recorded?.migrations ?? []].flat();
  if (folders.length && folders.every((f) => existsSync(f))) return { migrations: folders, skip: given.skip ?? recorded?.skip, ...withPack };
  if (legacyMigrations && existsSync(legacyMigrations)) return { migrations: [legacyMigrations], skip: given.skip, ...withPack };
  return { migrations: [packFolder ? shownPath(packFolder) : '.'], skip: given.skip, ...withPack };
}

/** What a saved failure records of where it was found (engine/failures/schema.ts FailureRecord). */
export interface RecordedOrigin {
  /** Its target, paths located beside the failure file (engine/failures/store.ts targetOfRecord). */
  target: RecordedTarget | undefined;
  /** An older record's migrations folder. */
  migrations: string | null;
  /** The digest of the migrations it was found on. */
  migrationsDigest: string | null;
}

/**
 * The target a saved failure is replayed on (recordedChoice, chosen). Where the folders it
 * recorded are here nowhere, the pack's own migrations stand in only when they are the very
 * migrations it was found on (the same digest: the bundled reference, recorded on another
 * checkout): on others a clean replay would call FIXED a bug it never looked for.
 */
export async function chooseRecordedTarget(source: PackSource, origin: RecordedOrigin, given: TargetChoice, packFolder: string | undefined): Promise<ChosenTarget> {
  const chosen = await chooseTarget(source, recordedChoice(origin.target, origin.migrations, given, packFolder));
  const missing = recordedFoldersMissing(origin, given);
  if (!missing.length) return chosen;
  const digest = migrationsDigest(chosen.target.migrations);
  if (origin.migrationsDigest === digest) return chosen;
  throw new UsageError(`this failure was found on the migrations in ${missing.join(', ')}, not here (nor where they lay relative to the failure file), and ${chosen.migrations || 'the pack'} holds other migrations (digest ${origin.migrationsDigest ?? 'not recorded'} then, ${digest} here): replay it with --migrations <that folder>`);
}

/** The recorded folders recordedChoice found nowhere, when it fell back to the pack's own (nothing named on the command line, no config recorded). */
function recordedFoldersMissing(origin: RecordedOrigin, given: TargetChoice): string[] {
  if (given.config || given.migrations?.length || origin.target?.config) return [];
  const folders = [origin.target?.migrations ?? []].flat();
  if (folders.length && folders.every((f) => existsSync(f))) return [];
  if (origin.migrations && existsSync(origin.migrations)) return [];
  const missing = folders.filter((f) => !existsSync(f));
  return missing.length ? missing : origin.migrations ? [origin.migrations] : [];
}

/** What a front-end may set on top of a resolved target (policyfuzz/vitest's options; the config's own come first). */
export interface TargetOverrides {
  /** Overrides of the model's settings (over the config's `model`). */
  settings?: Record<string, unknown>;
  /** The config's `fixtures` block, field by field. */
  fixtures?: { users?: FixturePlan['users']; bypassTriggers?: FixturePlan['bypassTriggers']; emptyTables?: readonly string[]; columnsAsRows?: FixturePlan['columnsAsRows']; tenantColumn?: string };
  /** More mapping, merged over the pack's and the config's. */
  mapping?: TargetMapping;
  supabaseCompat?: boolean;
}

export function refineTarget(target: Target, pack: Pack, overrides: TargetOverrides, label = 'the options'): Target {
  const settings = overrides.settings ? oracleOf(pack, parseSettings(pack, { ...(target.oracle.settings as object), ...overrides.settings }, label)) : target.oracle;
  const mapping = overrides.mapping ? targetMapping(pack, { mapping: overrides.mapping, file: label }, target.fixtures?.mapping) : target.fixtures?.mapping;
  const fixtures = overrides.fixtures || overrides.mapping ? { users: 'direct' as const, bypassTriggers: false, ...target.fixtures, ...overrides.fixtures, ...(mapping ? { mapping } : {}) } : target.fixtures;
  return { ...target, oracle: settings, supabaseCompat: overrides.supabaseCompat ?? target.supabaseCompat, ...(fixtures ? { fixtures } : {}), project: true };
}

function parseSettings(pack: Pack, settings: unknown, label: string): unknown {
  const parsed = pack.settingsSchema.safeParse(settings, PARSED_ONCE);
  if (!parsed.success) throw new UsageError(`${label}: the settings are not valid for pack ${pack.name}:\n${parsed.error.issues.map((i) => `  settings.${i.path.join('.')}: ${i.message}`).join('\n')}`);
  return parsed.data;
}
