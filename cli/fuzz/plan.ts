/**
 * The first phase of `fuzz`: from the options to a plan. It resolves the target, the profile's
 * numbers, the properties of each half, the baseline and the saved failures to replay, and checks
 * every option against the others, so that bad input fails before any database starts.
 */
import path from 'node:path';
import { migrationsDigest, type MigrationFile } from '../../engine/db/migrations.ts';
import { UsageError } from '../../engine/errors.ts';
import { resolveTarget, ruleAllowed, type Target } from '../../engine/config/target.ts';
import { findConfig } from '../../engine/config/config-shape.ts';
import { changedObjects, touches } from '../../engine/config/changed-since.ts';
import { listFailures, DEFAULT_FAILURES_DIR, type RecordContext } from '../../engine/failures/store.ts';
import { earlyStopApplies, wantedCatalogProperties, type DataRunPlan, type SavedCase } from '../../engine/run/data-run.ts';
import { loadBaseline, type Baseline } from '../../engine/findings/baseline.ts';
import type { Oracle, Pack } from '../../engine/pack.ts';
import { DEFAULT_REPORT_DIR } from '../../engine/report/write.ts';
import { catalogPropertiesOf, placeOfPath, type CatalogProperty, type DataProperty } from '../../engine/run/index.ts';
import { freshSeed } from '../options.ts';
import { defaultMigrationsOption, POLICYFUZZ_VERSION, shownPath } from '../paths.ts';
import { DEFAULT_PROFILE, PROFILES, type Profile, type ProfileName, type Shard } from '../profiles.ts';
import { checkSsoConfig, ssoPropertyIds } from '../sso-integration.ts';
import { loadScaledCutNote, slowdownOverride, ssoReserveMs, ssoSlowdown } from '../profiles.ts';
import { assertWritableFolder } from '../writable-folder.ts';
import type { FuzzOptions } from './fuzz-options.ts';
import { checkOptionCombinations } from './option-combinations.ts';
import { isSsoPropertyId } from '../../engine/property-id.ts';

export type { SavedCase } from '../../engine/run/data-run.ts';

/** The whole run: the data half's plan (engine/run/data-run.ts), the SSO half's, and what the reporters need. */
export interface RunPlan extends DataRunPlan {
  options: FuzzOptions;
  startedAt: Date;
  profileName: ProfileName;
  profile: Profile;
  pack: Pack;
  target: Target;
  /** How replay lines name the target (`--config f` or `--migrations d`). */
  targetArgs: string;
  /** The migrations option as given or defaulted (shown, and recorded in saved failures). */
  migrationsOption: string;
  oracle: Oracle;
  seed: number;
  runs: number;
  workers: number;
  shard: Shard;
  /** This shard's worker lanes among all shards' (engine/run/data-run.ts); every lane when shards split by property (early stop). */
  lanes: { first: number; count: number; total: number };
  /** Data-layer properties selected over all shards (engine/run/data-run.ts DataRunPlan.selected). */
  selected: number;
  timeBudgetMs?: number;
  minCases: number;
  failuresDir: string;
  reportDir: string;
  baseline?: Baseline;
  /** Data-layer properties to run (filtered by --only, --exclude, the config and --changed-since). */
  properties: DataProperty[];
  catalogProperties: CatalogProperty[];
  /** `--only`'s data-layer ids, when given (catalog properties follow it too). */
  onlyData?: string[];
  ssoIds: string[];
  migrations: MigrationFile[];
  digest: string | null;
  savedData: SavedCase[];
  savedSso: SavedCase[];
  record: RecordContext;
  excluded(id: string): boolean;
}


export async function planRun(options: FuzzOptions, note: (text: string, always?: boolean) => void): Promise<RunPlan> {
  checkOptionCombinations(options);
  const profileName = options.profile ?? DEFAULT_PROFILE;
  const profile = PROFILES[profileName];
  const pack = options.pack;
  const migrationsOption = options.migrations ?? defaultMigrationsOption(pack);
  const target = options.target ?? await resolveTarget(pack, { config: options.config, migrations: migrationsOption, explicitMigrations: migrationsOption !== defaultMigrationsOption(pack) });
  const oracle = options.settings === undefined ? target.oracle : { ...target.oracle, settings: options.settings };
  const runs = options.runs ?? profile.runs;
  const workers = options.workers ?? profile.workers;
  const shard = options.shard ?? { index: 1, count: 1 };
  const failuresDir = options.failuresDir ?? DEFAULT_FAILURES_DIR;
  const reportDir = options.reportDir ?? DEFAULT_REPORT_DIR;
  const baseline = options.baseline ? loadBaseline(options.baseline, { mayBeMissing: options.updateBaseline }) : undefined;
  const excluded = (id: string) => options.exclude?.includes(id.replace(/:catalog$/, '')) ?? false;
  assertWritableFolder(reportDir, '--report-dir');
  assertWritableFolder(failuresDir, '--failures-dir');

  // What runs: data-layer properties (R…) and, when asked, SSO properties (S…).
  const dataProperties = pack.properties;
  const catalogProperties = catalogPropertiesOf(pack);
  // The pack's ids (and catalog-only ones, the security lints) are data-layer properties, whatever their letter; S01… are the SSO half's.
  const isData = (id: string) => dataProperties.some((p) => p.id === id) || catalogProperties.some((p) => p.id === id);
  const onlyData = options.only?.filter(isData);
  const onlySso = options.only?.filter((id) => !isData(id) && isSsoPropertyId(id));
  const unknownData = (options.only ?? []).filter((id) => !isData(id) && !isSsoPropertyId(id));
  if (unknownData.length) {
    // --migrations runs without a config: a config here, and the pack it names, were not read.
    const unread = target.recorded?.config ? undefined : findConfig();
    const hint = unread ? `; ${shownPath(unread)} here was not read (--migrations runs without a config): run its pack with --pack <its pack>, or drop --migrations` : '';
    throw new UsageError(`no data-layer property ${unknownData.join(', ')} (known: ${[...new Set([...dataProperties, ...catalogProperties].map((p) => p.id))].join(', ')})${hint}`);
  }
  // The SSO half's ids load its modules (sso/properties and all they import): read only where an
  // id outside the data layer must be checked or the SSO half runs, so a data-only run never loads them.
  const excludedOutsideData = (options.exclude ?? []).filter((id) => !isData(id));
  let knownSso: string[] = excludedOutsideData.length ? await ssoPropertyIds() : [];
  const unknownExcluded = excludedOutsideData.filter((id) => !knownSso.includes(id));
  if (unknownExcluded.length) throw new UsageError(`--exclude: no property ${unknownExcluded.join(', ')} (known: ${[...new Set([...dataProperties, ...catalogProperties].map((p) => p.id)), ...knownSso].join(', ')})`);
  let properties = (options.only ? dataProperties.filter((p) => onlyData!.includes(p.id)) : dataProperties).filter((p) => ruleAllowed(target.config, p.id) && !excluded(p.id));
  // A property added to the project's own pack after `init` wrote `rules.include` would be left out without a word.
  const include = target.config?.packModule ? target.config.rules.include : undefined;
  const notIncluded = include && !options.only ? dataProperties.filter((p) => !include.includes(p.id) && !target.config!.rules.exclude.includes(p.id)).map((p) => p.id) : [];
  if (notIncluded.length) note(`${notIncluded.join(', ')} ${notIncluded.length > 1 ? 'are' : 'is'} in the pack but not in rules.include of ${path.basename(target.config!.file)}: not run (add ${notIncluded.length > 1 ? 'them' : 'it'} there, or \`policyfuzz init --force\` rewrites it)`, true);
  if (options.changedSince) {
    const focus = changedObjects(options.changedSince, target.migrationDirs);
    properties = properties.filter((p) => touches(p, focus.objects, target.fixtures?.mapping));
    note(`changed since ${options.changedSince}: ${focus.files.length ? focus.files.join(', ') : 'no migration files'}; objects ${focus.objects.join(', ') || 'none'}; rules touched: ${properties.map((p) => p.id).join(', ') || 'none'}`, true);
  }
  // The profile's SSO half checks the bundled emulator: it goes with the bundled target; a
  // project's own target (--config, --migrations) gets it with --sso.
  const projectTarget = target.project;
  const wantSso = Boolean(onlySso?.length) || (!options.only && (options.sso ?? (profile.sso && !projectTarget)));
  let ssoIds: string[] = [];
  if (wantSso) {
    if (!knownSso.length) knownSso = await ssoPropertyIds();
    const unknownSso = (onlySso ?? []).filter((id) => !knownSso.includes(id));
    if (unknownSso.length) throw new UsageError(`no SSO property ${unknownSso.join(', ')} (known: ${knownSso.join(', ')})`);
    // SSO properties are split across shards by position; data-layer properties by lanes.
    ssoIds = (onlySso?.length ? onlySso : knownSso).filter((id) => knownSso.indexOf(id) % shard.count === shard.index - 1 && !excluded(id));
  }
  // Read now, not after the data half has run.
  if (ssoIds.length && options.ssoConfig) await checkSsoConfig(options.ssoConfig);
  // Read now too: a bad value is exit 2 before anything runs, not an error once past the minimums.
  if (ssoIds.length) slowdownOverride();
  if (options.path && properties.length + (onlySso?.length ?? 0) !== 1) throw new UsageError('--path replays one case: name its property with --only');
  if (options.path && properties.length && !placeOfPath(options.path)) throw new UsageError(`--path ${options.path}: not a replay path; give the one a failure printed (e.g. 12:0:3, or 1/4/12:0:3 naming its lane)`);
  // Early stop judges a property on every lane's cases, so where it applies a shard takes whole properties
  // (by position, every lane of each): each stops where one machine with the same workers stops it.
  // Without it, a shard takes its lanes of every property.
  const earlyStop = options.earlyStop ?? profile.earlyStop;
  const selected = properties.length;
  const byProperty = shard.count > 1 && earlyStopApplies({ earlyStop, path: options.path, selected });
  if (byProperty) properties = properties.filter((_, i) => i % shard.count === shard.index - 1);

  const migrations = properties.length || wantedCatalogProperties({ catalogProperties, onlyData, target, excluded, path: options.path, shardIndex: shard.index }).length ? target.migrations : [];
  const digest = migrations.length ? migrationsDigest(migrations) : null;
  const listing = options.replay === false || options.path ? { failures: [], unreadable: [] } : listFailures(failuresDir);
  for (const u of listing.unreadable) note(`warning: skipping ${u.reason}`, true);
  return {
    options,
    startedAt: new Date(),
    profileName,
    profile,
    pack,
    target,
    targetArgs: target.cliArgs,
    migrationsOption,
    oracle,
    seed: options.seed ?? freshSeed(),
    runs,
    workers,
    shard,
    lanes: byProperty ? { first: 0, count: workers, total: workers } : { first: (shard.index - 1) * workers, count: workers, total: shard.count * workers },
    selected,
    shardIndex: shard.index,
    // The budget covers both halves: the SSO properties that run afterwards keep their share.
    ssoReserveMs: ssoIds.length ? ssoReserveMs(ssoIds.length, options.ssoRuns ?? profile.ssoRuns) : 0,
    // Past their minimums the data properties leave the SSO half what it needs at this moment's load.
    ssoNeedsMs: () => (ssoIds.length ? ssoReserveMs(ssoIds.length, options.ssoRuns ?? profile.ssoRuns, ssoSlowdown()) : 0),
    ssoNeedsNote: () => {
      if (!ssoIds.length) return undefined;
      const slowdown = ssoSlowdown();
      return loadScaledCutNote(slowdown, ssoReserveMs(ssoIds.length, options.ssoRuns ?? profile.ssoRuns, slowdown));
    },
    ...(options.path ? { path: options.path } : {}),
    server: { databaseUrl: options.databaseUrl, provider: options.provider },
    timeBudgetMs: options.path ? undefined : (options.timeBudget ?? profile.timeBudgetMs),
    minCases: Math.min(runs, options.minCases ?? profile.minCases),
    earlyStop,
    failuresDir,
    reportDir,
    baseline,
    properties,
    catalogProperties,
    onlyData,
    ssoIds,
    migrations,
    digest,
    savedData: listing.failures.filter((f) => f.record.area === 'data' && properties.some((p) => p.id === f.record.property)),
    savedSso: listing.failures.filter((f) => f.record.area === 'sso' && ssoIds.includes(f.record.property)),
    record: {
      policyfuzzVersion: POLICYFUZZ_VERSION,
      migrationsDigest: digest,
      migrations: migrationsOption,
      // What replays and regression tests rebuild: this config, or this migrations folder.
      target: target.recorded,
    },
    excluded,
  };
}

/** The command line that replays a result's failure (or a catalog finding's property). */
export function replayLineOf(plan: RunPlan, r: { id: string; area: 'data' | 'sso'; failure?: { seed: number; path: string } }): string {
  if (r.id.endsWith(':catalog')) return `policyfuzz fuzz ${plan.targetArgs} --only ${r.id.replace(/:catalog$/, '')}`;
  const f = r.failure!;
  const ssoConfig = plan.options.ssoConfig;
  if (r.area === 'sso') return `policyfuzz fuzz --only ${r.id} --seed ${f.seed} --path ${f.path}${ssoConfig ? ` --sso-config ${ssoConfig}` : ''}`;
  return `policyfuzz fuzz ${plan.targetArgs} --only ${r.id} --seed ${f.seed} --path ${f.path}`;
}

/** The opening line: what this run will do. */
export function planLine(plan: RunPlan): string {
  const { seed, profileName, runs, workers, shard, lanes, timeBudgetMs, migrationsOption, ssoIds, properties } = plan;
  // Split by property (early stop) or by lanes: said, so the run a merge equals is known.
  const split = lanes.count === lanes.total ? `data-layer properties ${properties.map((p) => p.id).join(',') || 'none'}, every lane; early stop as one machine` : `lanes ${lanes.first}…${lanes.first + workers - 1} of ${lanes.total}`;
  return (
    `policyfuzz: seed ${seed}, profile ${profileName}, ${runs} runs per property, ${workers} worker(s)` +
    `${shard.count > 1 ? `, shard ${shard.index}/${shard.count} (${split})` : ''}` +
    `${timeBudgetMs ? `, time budget ${Math.round(timeBudgetMs / 1000)} s` : ''}, migrations ${migrationsOption}${ssoIds.length ? `, SSO ${ssoIds.join(',')}` : ''}`
  );
}
