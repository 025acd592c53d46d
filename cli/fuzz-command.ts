/**
 * `policyfuzz fuzz`: the data-layer properties (and, when asked, the SSO properties against the
 * bundled emulator). Saved failures are replayed first; new failures are saved with their repros;
 * the report folder gets summary.json, junit.xml and report.html. The console ends with the
 * per-property table and the line `N passed, N failed` that CI reads.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { migrationsDigest } from '../engine/db/migrations.ts';
import { openEnvironment, type Environment } from '../engine/runner/environment.ts';
import { plannedRuns, runDataProperty } from '../engine/runner/run-data-property.ts';
import { applyCoverageGate } from '../engine/runner/coverage.ts';
import type { PropertyResult } from '../engine/runner/result.ts';
import { NO_PROGRESS, printFailures, progressBar, summaryTable, type SavedFor } from '../engine/report/console.ts';
import { propertySummary, runSummary, type PropertySummary } from '../engine/report/summary.ts';
import { DEFAULT_REPORT_DIR, DEFAULT_REPORT_FORMATS, REPORT_FORMATS, reportFileList, writeReports, type ReportFormat } from '../engine/report/write.ts';
import { regressionTest } from '../engine/failures/regression-test.ts';
import { replayDataCaseOnce } from '../engine/failures/replay.ts';
import { reproSql } from '../engine/failures/repro-sql.ts';
import { pgtapTest } from '../engine/failures/pgtap.ts';
import { DEFAULT_FAILURES_DIR, failureRecordOf, listFailures, saveFailure, type SavedFailure } from '../engine/failures/store.ts';
import type { FailureRecord } from '../engine/failures/schema.ts';
import { UsageError } from '../engine/errors.ts';
import { resolveTarget, ruleAllowed } from '../engine/config/target.ts';
import { changedObjects, touches } from '../engine/config/changed-since.ts';
import { fitToTarget, notApplicable } from '../engine/runner/applicability.ts';
import type { Pack, PackSource } from '../engine/pack.ts';
import { describeCaller } from '../engine/model/caller.ts';
import { describeRequest } from '../engine/model/request.ts';
import { runCatalogProperty } from '../engine/runner/catalog-property.ts';
import { providerValue, durationValue, freshSeed, idList, positiveInt, profileValue, propertyIdList, reportFormats, seedValue, shardValue } from './options.ts';
import { colorEnabled, paint } from '../engine/report/color.ts';
import { accessMatrix, matrixMarkdown } from '../engine/report/matrix.ts';
import { POLICYFUZZ_VERSION } from './paths.ts';
import { DEFAULT_PROFILE, PROFILES, ssoReserveMs, type ProfileName, type Shard } from './profiles.ts';
import { runSsoAgainstEmulator, ssoPropertyIds } from './sso-integration.ts';

export interface FuzzOptions {
  seed?: number;
  runs?: number;
  workers?: number;
  databaseUrl?: string;
  migrations: string;
  only?: string[];
  path?: string;
  provider?: 'local' | 'testcontainers';
  profile?: ProfileName;
  timeBudget?: number;
  shard?: Shard;
  sso?: boolean;
  ssoConfig?: string;
  ssoRuns?: number;
  reportDir?: string;
  failuresDir?: string;
  /** false (`--no-replay`): do not replay the saved failures first. */
  replay?: boolean;
  /** The pack whose rules run (the CLI is given it; it never imports one). */
  pack: Pack;
  /** Settings other than the target's (a test of a setting's meaning). */
  settings?: unknown;
  /** A project config (policyfuzz.config.json/.ts); found in the current folder when not given. */
  config?: string;
  /** Only the properties whose tables or functions the migrations changed since this git ref. */
  changedSince?: string;
  /** Set by fuzz(): how replay lines name the target. */
  targetArgs?: string;
  /** Property ids left out (`--exclude R07,S10`). */
  exclude?: string[];
  /** Stop after this many failing properties; the rest are not run (and named). */
  maxFailures?: number;
  /** Report files to write (default json, junit, html); `matrix` also prints the access matrix. */
  report?: ReportFormat[];
  /** false (`--no-color`); NO_COLOR in the environment also turns colour off. */
  color?: boolean;
  /** Only the failures and the final line. */
  quiet?: boolean;
  /** Also the access matrix on the console. */
  verbose?: boolean;
  /** Print summary.json to stdout (everything else goes to stderr). */
  json?: boolean;
}

type Out = (line: string) => void;

/** The pack's own migrations, as a path relative to the current folder where it can be. */
export function defaultMigrationsOption(pack: Pick<PackSource, 'migrations'>): string {
  const dir = pack.migrations ?? 'supabase/migrations';
  return path.relative(process.cwd(), dir) || dir;
}


function fuzzReplayLine(options: FuzzOptions, r: PropertyResult): string {
  const f = r.failure!;
  if (r.area === 'sso') return `policyfuzz fuzz --only ${r.id} --seed ${f.seed} --path ${f.path}${options.ssoConfig ? ` --sso-config ${options.ssoConfig}` : ''}`;
  return `policyfuzz fuzz ${options.targetArgs ?? `--migrations ${options.migrations}`} --only ${r.id} --seed ${f.seed} --path ${f.path}`;
}

/** A saved failure that still fails, reported as the property's failure without generating anew. */
function resultFromSaved(record: FailureRecord, file: string, seed: number, expected: unknown, actual: unknown, message: string, step: number | undefined, ms: number): PropertyResult {
  return {
    id: record.property,
    title: record.title,
    area: record.area,
    status: 'failed',
    cases: 1,
    counts: {},
    durationMs: ms,
    seed,
    note: `saved failure ${file} still fails (replayed first; no new cases generated)`,
    failure: { seed: record.seed, path: record.path, counterexample: record.case, expected, actual, message, ...(step !== undefined ? { step } : {}) },
  };
}

/** The files of a failure saved by an earlier run. */
function savedFiles({ record, file }: { record: FailureRecord; file: string }): SavedFailure {
  const sql = file.replace(/\.json$/, '.sql');
  const pgtap = file.replace(/\.json$/, '.pgtap.sql');
  const regression = file.replace(/\.json$/, '.regression.ts');
  return { record, json: file, ...(existsSync(sql) ? { sql } : {}), ...(existsSync(pgtap) ? { pgtap } : {}), ...(existsSync(regression) ? { regression } : {}) };
}


export async function fuzz(options: FuzzOptions, out: Out = console.log): Promise<number> {
  const startedAt = new Date();
  const profileName = options.profile ?? DEFAULT_PROFILE;
  const profile = PROFILES[profileName];
  const pack = options.pack;
  const migrationsOption = options.migrations ?? defaultMigrationsOption(pack);
  const target = await resolveTarget(pack, { config: options.config, migrations: migrationsOption, explicitMigrations: migrationsOption !== defaultMigrationsOption(pack) });
  options.targetArgs = target.cliArgs;
  const oracle = options.settings === undefined ? target.oracle : { ...target.oracle, settings: options.settings };
  const dataProperties = pack.properties;
  const catalogProperties = pack.catalogProperties ?? [];
  const seed = options.seed ?? freshSeed();
  const runs = options.runs ?? profile.runs;
  const workers = options.workers ?? profile.workers;
  const shard = options.shard ?? { index: 1, count: 1 };
  const timeBudgetMs = options.path ? undefined : (options.timeBudget ?? profile.timeBudgetMs);
  const failuresDir = options.failuresDir ?? DEFAULT_FAILURES_DIR;
  const reportDir = options.reportDir ?? DEFAULT_REPORT_DIR;
  const excluded = (id: string) => options.exclude?.includes(id.replace(/:catalog$/, '')) ?? false;
  // --quiet: the failures and the final line only; the rest is chatter.
  const chatter: Out = options.quiet ? () => {} : out;
  const colors = paint(colorEnabled({ noColor: options.color === false, stream: options.json ? process.stderr : process.stdout }));

  // What runs: data-layer properties (R…) and, when asked, SSO properties (S…).
  const onlyData = options.only?.filter((id) => id.startsWith('R'));
  const onlySso = options.only?.filter((id) => id.startsWith('S'));
  const unknownData = (onlyData ?? []).filter((id) => !dataProperties.some((p) => p.id === id));
  if (unknownData.length) throw new UsageError(`no data-layer property ${unknownData.join(', ')} (known: ${dataProperties.map((p) => p.id).join(', ')})`);
  let properties = (options.only ? dataProperties.filter((p) => onlyData!.includes(p.id)) : dataProperties).filter((p) => ruleAllowed(target.config, p.id) && !excluded(p.id));
  if (options.changedSince) {
    const focus = changedObjects(options.changedSince, target.config?.migrationDirs ?? [options.migrations]);
    properties = properties.filter((p) => touches(p, focus.objects));
    out(`changed since ${options.changedSince}: ${focus.files.length ? focus.files.join(', ') : 'no migration files'}; objects ${focus.objects.join(', ') || 'none'}; rules touched: ${properties.map((p) => p.id).join(', ') || 'none'}`);
  }
  // The profile's SSO half checks the bundled emulator: it goes with the bundled target; a
  // project's own target (--config, --migrations) gets it with --sso.
  const projectTarget = Boolean(target.config) || migrationsOption !== defaultMigrationsOption(pack);
  const wantSso = Boolean(onlySso?.length) || (!options.only && (options.sso ?? (profile.sso && !projectTarget)));
  let ssoIds: string[] = [];
  if (wantSso) {
    const known = await ssoPropertyIds();
    const unknownSso = (onlySso ?? []).filter((id) => !known.includes(id));
    if (unknownSso.length) throw new UsageError(`no SSO property ${unknownSso.join(', ')} (known: ${known.join(', ')})`);
    // SSO properties are split across shards by position; data-layer properties by lanes.
    ssoIds = (onlySso?.length ? onlySso : known).filter((id) => known.indexOf(id) % shard.count === shard.index - 1 && !excluded(id));
  }
  if (options.path && properties.length + (onlySso?.length ?? 0) !== 1) throw new UsageError('--path replays one case: name its property with --only');

  const migrations = properties.length ? target.migrations : [];
  const digest = migrations.length ? migrationsDigest(migrations) : null;
  const lanes = { first: (shard.index - 1) * workers, count: workers, total: shard.count * workers };
  chatter(
    `policyfuzz: seed ${seed}, profile ${profileName}, ${runs} runs per property, ${workers} worker(s)` +
      `${shard.count > 1 ? `, shard ${shard.index}/${shard.count} (lanes ${lanes.first}…${lanes.first + workers - 1} of ${lanes.total})` : ''}` +
      `${timeBudgetMs ? `, time budget ${Math.round(timeBudgetMs / 1000)} s` : ''}, migrations ${options.migrations}${ssoIds.length ? `, SSO ${ssoIds.join(',')}` : ''}`,
  );

  const listing = options.replay === false || options.path ? { failures: [], unreadable: [] } : listFailures(failuresDir);
  for (const u of listing.unreadable) out(`warning: skipping ${u.reason}`);
  const savedData = listing.failures.filter((f) => f.record.area === 'data' && properties.some((p) => p.id === f.record.property));
  const savedSso = listing.failures.filter((f) => f.record.area === 'sso' && ssoIds.includes(f.record.property));

  const results: PropertyResult[] = [];
  /** Properties left out once --max-failures was reached. */
  const notRun: string[] = [];
  const maxFailuresReached = () => options.maxFailures !== undefined && results.filter((r) => r.status === 'failed' || r.status === 'error').length >= options.maxFailures;
  const savedFor = new Map<string, SavedFor>();
  const recordContext = { policyfuzzVersion: POLICYFUZZ_VERSION, migrationsDigest: digest, migrations: options.migrations };
  const save = (r: PropertyResult, env?: Environment) => {
    const record = failureRecordOf(r, recordContext);
    const entry: SavedFor = { replay: fuzzReplayLine(options, r) };
    if (record) {
      const repros = record.area === 'data' && env ? { sql: reproSql(record, env.cache, oracle), pgtap: pgtapTest(record, env.cache, oracle), regression: regressionTest(record) } : {};
      entry.saved = saveFailure(failuresDir, record, repros);
    }
    savedFor.set(r.id, entry);
  };

  if (properties.length) {
    const env = await openEnvironment({ databaseUrl: options.databaseUrl, provider: options.provider, migrations, workers, log: chatter, supabaseCompat: target.supabaseCompat, fixtures: target.fixtures });
    try {
      chatter(`ready in ${env.startupMs} ms`);
      // Saved failures first: a case that still fails is the property's verdict.
      const stillFailing = new Map<string, PropertyResult>();
      if (savedData.length) chatter(`replaying ${savedData.length} saved failure(s) from ${failuresDir} first`);
      for (const { file, record } of savedData) {
        if (stillFailing.has(record.property)) continue;
        const t = Date.now();
        const mismatch = await replayDataCaseOnce(env.workers[0], record, oracle);
        const changed = record.migrationsDigest && record.migrationsDigest !== env.template.digest ? ` (migrations changed since it was saved: digest ${record.migrationsDigest} → ${env.template.digest})` : '';
        chatter(`  ${file}: ${mismatch ? 'still fails' : 'now passes (policyfuzz replay it to confirm FIXED)'}${changed}`);
        if (mismatch) {
          stillFailing.set(
            record.property,
            resultFromSaved(record, file, seed, mismatch.expected, { outcome: mismatch.actual, response: mismatch.response }, `step ${mismatch.step + 1}: ${mismatch.reason}\n  ${describeCaller(mismatch.request.caller)} ${describeRequest(mismatch.request.request)}`, mismatch.step, Date.now() - t),
          );
        }
      }

      const toGenerate = properties.filter((p) => !stillFailing.has(p.id));
      const bar = options.quiet || options.json ? NO_PROGRESS : progressBar(options.path ? 1 : toGenerate.length * plannedRuns(runs, lanes));
      // The budget covers both halves: the SSO properties that run afterwards keep their share.
      const dataBudgetMs = timeBudgetMs ? Math.max(timeBudgetMs / 2, timeBudgetMs - (ssoIds.length ? ssoReserveMs(ssoIds.length, options.ssoRuns ?? profile.ssoRuns) : 0)) : undefined;
      const deadline = dataBudgetMs ? Date.now() + dataBudgetMs : undefined;
      try {
        for (const listed of properties) {
          if (maxFailuresReached()) {
            notRun.push(listed.id);
            continue;
          }
          // Narrowed to the tables this target has (R01), or not applicable when it lacks them.
          const { property, missing } = fitToTarget(listed, env.cache);
          if (missing.length) {
            results.push(notApplicable(property, missing, seed));
            continue;
          }
          const saved = stillFailing.get(property.id);
          if (saved) {
            results.push(saved);
            savedFor.set(property.id, { replay: fuzzReplayLine(options, saved), saved: savedFiles(savedData.find((s) => s.record.property === property.id)!) });
            continue;
          }
          // A property may use the budget as long as every property after it keeps half a fair
          // share (budget / properties / 2); time one leaves unused goes to the ones after it.
          const after = toGenerate.length - toGenerate.indexOf(listed) - 1;
          const propertyDeadline = deadline && dataBudgetMs ? Math.max(Date.now() + 1, deadline - (after * dataBudgetMs) / (2 * toGenerate.length)) : undefined;
          const r = await runDataProperty(env, property, { seed, runs, oracle, path: options.path, lanes: { first: lanes.first, total: lanes.total }, deadline: propertyDeadline, onCase: (id) => bar.tick(id) });
          const gated = options.path || r.note?.startsWith('time budget') ? r : applyCoverageGate(r);
          results.push(gated);
          if (gated.status === 'failed' && gated.failure) save(gated, env);
        }
      } finally {
        bar.stop();
      }
      // Catalog properties (grants of every function and table): one pass, on the first shard.
      if (!options.path && shard.index === 1 && !maxFailuresReached()) {
        for (const property of catalogProperties.filter((c) => (!onlyData || onlyData.includes(c.id)) && ruleAllowed(target.config, c.id) && !excluded(c.id))) {
          const r = await runCatalogProperty(env, property, { seed, settings: oracle.settings });
          results.push({ ...r, id: `${r.id}:catalog` });
          if (r.status === 'failed') savedFor.set(`${r.id}:catalog`, { replay: `policyfuzz fuzz --migrations ${options.migrations} --only ${r.id}` });
        }
      }
    } finally {
      await env.close();
    }
  }

  if (ssoIds.length && maxFailuresReached()) notRun.push(...ssoIds);
  else if (ssoIds.length) {
    const ssoRuns = options.ssoRuns ?? profile.ssoRuns;
    const stillFailing = new Set<string>();
    for (const { file, record } of savedSso) {
      if (stillFailing.has(record.property)) continue;
      const [r] = await runSsoAgainstEmulator({ seed: record.seed, numRuns: 1, only: [record.property], path: record.path, config: options.ssoConfig });
      chatter(`  ${file}: ${r.status === 'failed' ? 'still fails' : 'now passes'}`);
      if (r.status === 'failed' && r.failure) {
        stillFailing.add(record.property);
        results.push({ ...r, note: `saved failure ${file} still fails (replayed first; no new cases generated)` });
        savedFor.set(r.id, { replay: fuzzReplayLine(options, r), saved: savedFiles({ record, file }) });
      }
    }
    const rest = ssoIds.filter((id) => !stillFailing.has(id));
    if (rest.length) {
      chatter(`SSO: ${rest.length} properties against the bundled emulator, ${ssoRuns} runs each`);
      for (const r of await runSsoAgainstEmulator({ seed, numRuns: ssoRuns, only: rest, path: options.path, config: options.ssoConfig })) {
        results.push(r);
        if (r.status === 'failed' && r.failure) save(r);
      }
    }
  }

  chatter('');
  chatter(summaryTable(results));
  printFailures(results, savedFor, out, colors);
  if (notRun.length) out(`\nstopped after ${options.maxFailures} failing propert${options.maxFailures === 1 ? 'y' : 'ies'} (--max-failures): not run ${notRun.join(', ')}`);

  const summaries: PropertySummary[] = results.map((r) => {
    const s = savedFor.get(r.id);
    return propertySummary(r, {
      id: s?.saved?.record.id ?? null,
      replay: s ? `${s.saved ? `policyfuzz replay ${s.saved.json}\n` : ''}${s.replay}` : '',
      file: s?.saved?.json ?? null,
      reproSql: s?.saved?.sql && existsSync(s.saved.sql) ? readFileSync(s.saved.sql, 'utf8') : null,
      regressionFile: s?.saved?.regression ?? null,
    });
  });
  const summary = runSummary(summaries, {
    policyfuzzVersion: POLICYFUZZ_VERSION,
    seed,
    profile: profileName,
    shard,
    migrations: properties.length ? options.migrations : null,
    migrationsDigest: digest,
    startedAt,
    timeBudgetMs: timeBudgetMs ?? null,
  });
  const files = writeReports(reportDir, summary, { formats: options.report, migrations });
  if (options.report?.includes('matrix') || options.verbose) chatter(`\naccess matrix (who can do what, judged by the model):\n\n${matrixMarkdown(accessMatrix(summary.properties))}`);
  const budgetHit = results.filter((r) => r.note?.startsWith('time budget'));
  if (budgetHit.length) chatter(`\ntime budget reached: ${summary.totals.cases} cases ran (${budgetHit.map((r) => `${r.id} ${r.cases}`).join(', ')})`);
  chatter(`\nreports: ${reportFileList(files).join(', ')}`);
  const failed = results.filter((r) => r.status === 'failed' || r.status === 'error');
  const na = results.filter((r) => r.status === 'not-applicable');
  const half = (area: 'data' | 'sso') => {
    const own = results.filter((r) => r.area === area);
    const bad = own.filter((r) => r.status === 'failed' || r.status === 'error').length;
    return own.length ? `${area === 'data' ? 'data layer' : 'SSO'} ${own.length - bad}/${own.length} passed (${own.reduce((n, r) => n + r.cases, 0)} cases)` : undefined;
  };
  const halves = [half('data'), half('sso')].filter(Boolean);
  if (halves.length > 1) chatter(`\n${halves.join(' · ')}`);
  const verdict = `${results.length - failed.length - na.length} passed, ${failed.length} failed${na.length ? `, ${na.length} not applicable` : ''}${notRun.length ? `, ${notRun.length} not run` : ''} (seed ${seed})`;
  out(`\n${failed.length ? colors.red(verdict) : colors.green(verdict)}`);
  if (options.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  return failed.length ? 1 : 0;
}

export function registerFuzzCommand(program: Command, run: (action: () => Promise<number>) => Promise<void>, pack: PackSource): void {
  const p = PROFILES;
  program
    .command('fuzz', { isDefault: true })
    .description('run the properties (data layer R01…R20; SSO S01… with --sso) against a migrations folder on a scratch database')
    .option('--profile <name>', `pr (default: ${p.pr.description}) or nightly (${p.nightly.description})`, profileValue)
    .option('--seed <n>', 'seed for generation (default: a fresh one, printed)', seedValue)
    .option('--runs <n>', `cases per property (pr ${p.pr.runs}, nightly ${p.nightly.runs})`, positiveInt('--runs'))
    .option('--workers <n>', `parallel database connections (pr ${p.pr.workers}, nightly ${p.nightly.workers})`, positiveInt('--workers'))
    .option('--time-budget <duration>', `stop generating after this long, e.g. 90s, 20m (pr ${p.pr.timeBudgetMs / 1000}s, nightly ${p.nightly.timeBudgetMs / 60_000}m)`, durationValue)
    .option('--shard <i/n>', 'run shard i of n (a CI matrix); combine the shards with merge-reports', shardValue)
    .option('--database-url <url>', 'use this Postgres server (default: $DATABASE_URL, else testcontainers, else a local server)')
    .option('--provider <name>', 'force where Postgres comes from: testcontainers or local', providerValue)
    .option('--migrations <dir>', 'folder of .sql migrations', defaultMigrationsOption(pack))
    .option('--config <file>', 'a project config (policyfuzz.config.json or .ts); default: the one in this folder, if any')
    .option('--changed-since <git-ref>', 'only the rules whose tables or functions the migrations changed since this ref')
    .option('--only <ids>', 'comma-separated property ids, e.g. R02,R05 or S03', idList)
    .option('--path <path>', 'with --seed and --only: replay the shrunk case a failure printed')
    .option('--sso', 'run the SSO properties against the bundled emulator too (the default for the bundled target in both profiles)')
    .option('--no-sso', 'leave the SSO properties out')
    .option('--sso-config <file>', 'emulator config for the SSO properties (default: sso/examples/sso.config.json)')
    .option('--sso-runs <n>', `cases per SSO property (pr ${p.pr.ssoRuns}, nightly ${p.nightly.ssoRuns})`, positiveInt('--sso-runs'))
    .option('--report-dir <dir>', 'where the reports go (summary.json, junit.xml, report.html, policyfuzz.sarif, matrix.md)', DEFAULT_REPORT_DIR)
    .option('--failures-dir <dir>', 'saved failures (replayed first, new ones written with their repros)', DEFAULT_FAILURES_DIR)
    .option('--no-replay', 'do not replay the saved failures first')
    .option('--exclude <ids>', 'comma-separated property ids to leave out, e.g. R07,S10', propertyIdList('--exclude'))
    .option('--max-failures <n>', 'stop after n failing properties (the rest are named as not run)', positiveInt('--max-failures'))
    .option('--report <formats>', `reports to write: ${REPORT_FORMATS.join(',')} (default ${DEFAULT_REPORT_FORMATS.join(',')}; matrix also prints the access matrix)`, reportFormats)
    .option('--json', 'print summary.json to stdout (everything else goes to stderr)')
    .option('-q, --quiet', 'print only the failures and the final line')
    .option('-v, --verbose', 'also print the access matrix')
    .option('--no-color', 'no colour (also when NO_COLOR is set or the output is not a terminal)')
    .action((opts: Omit<FuzzOptions, 'pack'>) =>
      run(async () => {
        if (opts.quiet && opts.verbose) throw new UsageError('--quiet and --verbose contradict each other: give one');
        // --json keeps stdout for the summary: the human output goes to stderr.
        const out = opts.json ? (line: string) => void process.stderr.write(`${line}\n`) : console.log;
        return fuzz({ ...opts, pack: await pack.load() }, out);
      }),
    );
}
