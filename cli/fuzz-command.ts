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
import { COUNTS_LEGEND, NO_PROGRESS, printFailures, progressBar, summaryTable, type SavedFor } from '../engine/report/console.ts';
import { propertySummary, runSummary, type PropertySummary } from '../engine/report/summary.ts';
import { DEFAULT_REPORT_DIR, DEFAULT_REPORT_FORMATS, REPORT_FORMATS, reportFileList, writeReports, type ReportFormat } from '../engine/report/write.ts';
import { regressionTest } from '../engine/failures/regression-test.ts';
import { replayDataCaseOnce } from '../engine/failures/replay.ts';
import { reproSql } from '../engine/failures/repro-sql.ts';
import { pgtapTest } from '../engine/failures/pgtap.ts';
import { DEFAULT_FAILURES_DIR, failureRecordOf, listFailures, saveFailure, type SavedFailure } from '../engine/failures/store.ts';
import type { FailureRecord } from '../engine/failures/schema.ts';
import { UsageError } from '../engine/errors.ts';
import { chooseTarget, resolveTarget, ruleAllowed, type Target, type TargetChoice } from '../engine/config/target.ts';
import { changedObjects, touches } from '../engine/config/changed-since.ts';
import { fitToTarget, notApplicable, partialNote } from '../engine/runner/applicability.ts';
import type { Pack, PackSource } from '../engine/pack.ts';
import { describeCaller } from '../engine/model/caller.ts';
import { describeRequest } from '../engine/model/request.ts';
import { runCatalogProperty } from '../engine/runner/catalog-property.ts';
import { providerValue, durationValue, freshSeed, idList, positiveInt, profileValue, propertyIdList, reportFormats, seedValue, shardValue } from './options.ts';
import { colorEnabled, paint } from '../engine/report/color.ts';
import { accessMatrix, matrixMarkdown } from '../engine/report/matrix.ts';
import { misfitResult, vocabularyMisfits } from '../engine/runner/vocabulary-fit.ts';
import { budgetVerdict, joinPasses, notReached, shareOfBudget } from '../engine/runner/budget.ts';
import type { DataProperty } from '../engine/runner/data-property.ts';
import { INTERRUPTED_EXIT_CODE, onInterrupt } from '../engine/db/cleanup.ts';
import { POLICYFUZZ_VERSION } from './paths.ts';
import { DEFAULT_PROFILE, PROFILES, ssoReserveMs, type ProfileName, type Shard } from './profiles.ts';
import { runSsoAgainstEmulator, ssoPropertyIds } from './sso-integration.ts';
import { applyBaseline, checkBaseline, loadBaseline, saveBaseline, updatedBaseline, type BaselineCheck } from '../engine/findings/baseline.ts';
import { findingKey, printFindings, withOtherFindings } from '../engine/findings/report.ts';
import { assertWritableFolder } from './writable-folder.ts';

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
  /** A baseline of accepted findings: the run fails only on others. */
  baseline?: string;
  /** Rewrite the baseline: this run's findings in, FIXED entries out. */
  updateBaseline?: boolean;
  /** Fewest cases for a verdict when the budget or an interrupt cuts a property short (default: the profile's). */
  minCases?: number;
  /** Exit 1 when a property is partial or not reached (CI that wants every property's minimum). */
  failOnPartial?: boolean;
  /** The target, chosen by the CLI (engine/config/target.ts chooseTarget); else resolved from config/migrations. */
  target?: Target;
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
  const target = options.target ?? await resolveTarget(pack, { config: options.config, migrations: migrationsOption, explicitMigrations: migrationsOption !== defaultMigrationsOption(pack) });
  options.targetArgs = target.cliArgs;
  const oracle = options.settings === undefined ? target.oracle : { ...target.oracle, settings: options.settings };
  const dataProperties = pack.properties;
  const catalogProperties = pack.catalogProperties ?? [];
  const seed = options.seed ?? freshSeed();
  const runs = options.runs ?? profile.runs;
  const workers = options.workers ?? profile.workers;
  const shard = options.shard ?? { index: 1, count: 1 };
  const timeBudgetMs = options.path ? undefined : (options.timeBudget ?? profile.timeBudgetMs);
  const minCases = Math.min(runs, options.minCases ?? profile.minCases);
  // A signal once the run is under way stops generation; what completed is reported, marked interrupted.
  let interruptedBy: string | undefined;
  const interrupted = () => interruptedBy !== undefined;
  let stopWatching = () => {};
  const watchInterrupt = () => {
    stopWatching();
    stopWatching = onInterrupt((signal) => {
      interruptedBy = signal;
      out(`\n${signal}: stopping after the cases in flight; reporting what completed`);
    });
  };
  const failuresDir = options.failuresDir ?? DEFAULT_FAILURES_DIR;
  const reportDir = options.reportDir ?? DEFAULT_REPORT_DIR;
  if (options.updateBaseline && !options.baseline) throw new UsageError('--update-baseline needs --baseline <file> (the file to write)');
  const baseline = options.baseline ? loadBaseline(options.baseline, { mayBeMissing: options.updateBaseline }) : undefined;
  const accepted = new Set(baseline?.findings.map((e) => e.signature));
  let baselineChecks: BaselineCheck[] = [];
  const excluded = (id: string) => options.exclude?.includes(id.replace(/:catalog$/, '')) ?? false;
  // --quiet: the failures and the final line only; the rest is chatter.
  const chatter: Out = options.quiet ? () => {} : out;
  const colors = paint(colorEnabled({ noColor: options.color === false, stream: options.json ? process.stderr : process.stdout }));
  assertWritableFolder(reportDir, '--report-dir');
  assertWritableFolder(failuresDir, '--failures-dir');

  // What runs: data-layer properties (R…) and, when asked, SSO properties (S…).
  const onlyData = options.only?.filter((id) => id.startsWith('R'));
  const onlySso = options.only?.filter((id) => id.startsWith('S'));
  const unknownData = (onlyData ?? []).filter((id) => !dataProperties.some((p) => p.id === id));
  if (unknownData.length) throw new UsageError(`no data-layer property ${unknownData.join(', ')} (known: ${dataProperties.map((p) => p.id).join(', ')})`);
  let properties = (options.only ? dataProperties.filter((p) => onlyData!.includes(p.id)) : dataProperties).filter((p) => ruleAllowed(target.config, p.id) && !excluded(p.id));
  if (options.changedSince) {
    const focus = changedObjects(options.changedSince, target.migrationDirs);
    properties = properties.filter((p) => touches(p, focus.objects));
    out(`changed since ${options.changedSince}: ${focus.files.length ? focus.files.join(', ') : 'no migration files'}; objects ${focus.objects.join(', ') || 'none'}; rules touched: ${properties.map((p) => p.id).join(', ') || 'none'}`);
  }
  // The profile's SSO half checks the bundled emulator: it goes with the bundled target; a
  // project's own target (--config, --migrations) gets it with --sso.
  const projectTarget = target.project;
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
  /** Failing properties of the generation pass, before their results are gathered in `results`. */
  let failingSoFar = 0;
  const maxFailuresReached = () =>
    options.maxFailures !== undefined && Math.max(failingSoFar, results.filter((r) => r.status === 'failed' || r.status === 'error').length) >= options.maxFailures;
  const savedFor = new Map<string, SavedFor>();
  const recordContext = {
    policyfuzzVersion: POLICYFUZZ_VERSION,
    migrationsDigest: digest,
    migrations: options.migrations,
    // What replays and regression tests rebuild: this config, or this migrations folder.
    target: target.recorded,
  };
  /** A data failure's repros: a psql script, a pgTAP test and a vitest regression test. */
  const reprosOf = (record: FailureRecord, env?: Environment) =>
    record.area === 'data' && env ? { sql: reproSql(record, env.cache, oracle, env.workers[0].tx.fixturePlan), pgtap: pgtapTest(record, env.cache, oracle, env.workers[0].tx.fixturePlan), regression: regressionTest(record) } : {};
  const save = (r: PropertyResult, env?: Environment) => {
    // Every open finding is saved with its own replay line; the property's entry is its first.
    for (const f of r.findings ?? []) {
      if (f.baselined !== undefined) continue;
      const one = { ...r, failure: f };
      const record = failureRecordOf(one, recordContext);
      const entry: SavedFor = { replay: fuzzReplayLine(options, one) };
      if (record && env) entry.saved = saveFailure(failuresDir, record, reprosOf(record, env));
      savedFor.set(findingKey(r, f), entry);
      if (f === r.failure) savedFor.set(r.id, entry);
    }
    if (r.findings?.length) return;
    const record = failureRecordOf(r, recordContext);
    const entry: SavedFor = { replay: fuzzReplayLine(options, r) };
    if (record) entry.saved = saveFailure(failuresDir, record, reprosOf(record, env));
    savedFor.set(r.id, entry);
  };

  if (properties.length) {
    const env = await openEnvironment({ databaseUrl: options.databaseUrl, provider: options.provider, migrations, workers, log: chatter, supabaseCompat: target.supabaseCompat, fixtures: target.fixtures, api: target.api });
    try {
      chatter(`ready in ${env.startupMs} ms`);
      watchInterrupt();
      const misfits = [...vocabularyMisfits(oracle, env.workers[0].tx.fixturePlan.shapes), ...(pack.settingsMisfits?.(oracle.settings) ?? [])];
      // Saved failures first: a case that still fails is the property's verdict.
      const stillFailing = new Map<string, PropertyResult>();
      if (savedData.length) chatter(`replaying ${savedData.length} saved failure(s) from ${failuresDir} first`);
      for (const { file, record } of savedData) {
        if (stillFailing.has(record.property) || (record.signature && accepted.has(record.signature))) continue;
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

      // What runs: fitted to the target's tables; not applicable, a misfit or a saved failure is settled already.
      const settled = new Map<string, PropertyResult>();
      const toGenerate: DataProperty[] = [];
      /** Parts of a property left out because the target lacks what they call (shown in its note). */
      const partsLeftOut = new Map<string, string>();
      for (const listed of properties) {
        // Narrowed to the tables and functions this target has (under its mapping), or not applicable when it lacks them.
        const { property, missing, leftOut } = fitToTarget(listed, env.cache, target.fixtures?.mapping);
        const partial = partialNote(leftOut);
        if (partial) partsLeftOut.set(property.id, partial);
        const saved = stillFailing.get(property.id);
        if (missing.length) settled.set(property.id, notApplicable(property, missing, seed));
        else if (misfits.length) settled.set(property.id, misfitResult(property, misfits, seed, target.config?.file ?? 'the config'));
        else if (saved) {
          settled.set(property.id, saved);
          savedFor.set(property.id, { replay: fuzzReplayLine(options, saved), saved: savedFiles(savedData.find((s) => s.record.property === property.id)!) });
        } else toGenerate.push(property);
      }
      const bar = options.quiet || options.json ? NO_PROGRESS : progressBar(options.path ? 1 : toGenerate.length * plannedRuns(runs, lanes));
      // The budget covers both halves: the SSO properties that run afterwards keep their share.
      const dataBudgetMs = timeBudgetMs ? Math.max(timeBudgetMs / 2, timeBudgetMs - (ssoIds.length ? ssoReserveMs(ssoIds.length, options.ssoRuns ?? profile.ssoRuns) : 0)) : undefined;
      const deadline = dataBudgetMs ? Date.now() + dataBudgetMs : undefined;
      const generated = new Map<string, PropertyResult>();
      const runOptions = { seed, oracle, path: options.path, lanes: { first: lanes.first, total: lanes.total }, stop: interrupted, onCase: (id: string) => bar.tick(id) };
      const outOfTime = () => deadline !== undefined && Date.now() >= deadline;
      try {
        // With a budget, every property first gets its minimum of cases, then the rest (engine/runner/budget.ts).
        const twoPasses = deadline !== undefined && !options.path && toGenerate.length > 1 && minCases < runs;
        for (const [i, property] of toGenerate.entries()) {
          if (interrupted() || outOfTime()) break;
          if (maxFailuresReached()) {
            notRun.push(property.id);
            continue;
          }
          const r = await runDataProperty(env, property, { ...runOptions, runs: twoPasses ? minCases : runs, deadline: deadline && shareOfBudget(deadline, toGenerate.length - i) });
          generated.set(property.id, r);
          if (r.status === 'failed') failingSoFar++;
        }
        if (twoPasses) {
          const rest = toGenerate.filter((p) => generated.get(p.id)?.status === 'passed' && !generated.get(p.id)?.stopped);
          for (const [i, property] of rest.entries()) {
            if (interrupted() || outOfTime()) break;
            const first = generated.get(property.id)!;
            const r = await runDataProperty(env, property, { ...runOptions, runs, skipFirst: minCases, deadline: shareOfBudget(deadline!, rest.length - i) });
            generated.set(property.id, joinPasses(first, r));
          }
          // Those the second pass never reached ran their minimum only: cut short all the same.
          for (const property of rest) {
            const r = generated.get(property.id)!;
            if (r.status === 'passed' && r.cases < plannedRuns(runs, lanes) && !r.stopped) generated.set(property.id, { ...r, stopped: interrupted() ? 'interrupted' : 'time budget' });
          }
        }
      } finally {
        bar.stop();
      }
      for (const listed of properties) {
        const settledResult = settled.get(listed.id);
        if (settledResult) {
          results.push(settledResult);
          continue;
        }
        if (notRun.includes(listed.id)) continue;
        const pass = generated.get(listed.id);
        const r = pass && !options.path ? { ...pass, planned: plannedRuns(runs, lanes) } : pass;
        if (!r) {
          results.push(notReached(listed, 'data', seed, interrupted() ? 'interrupted' : 'time budget', plannedRuns(runs, lanes)));
          continue;
        }
        const gated = applyBaseline([budgetVerdict(options.path || (r.stopped && r.cases < minCases) ? r : applyCoverageGate(r), minCases)], baseline ?? { findings: [] })[0];
        const leftOutNote = partsLeftOut.get(listed.id);
        results.push(leftOutNote && !gated.note ? { ...gated, note: leftOutNote } : gated);
        if (gated.status === 'failed' && gated.failure) save(gated, env);
      }
      if (baseline) baselineChecks = await checkBaseline(env.workers[0], oracle, baseline, results);
      // Catalog properties (grants of every function and table): one pass, on the first shard.
      if (!options.path && shard.index === 1 && !interrupted() && !maxFailuresReached()) {
        for (const property of catalogProperties.filter((c) => (!onlyData || onlyData.includes(c.id)) && ruleAllowed(target.config, `${c.id}:catalog`) && !excluded(c.id))) {
          const r = await runCatalogProperty(env, property, { seed, settings: oracle.settings });
          results.push({ ...r, id: `${r.id}:catalog` });
          if (r.status === 'failed') savedFor.set(`${r.id}:catalog`, { replay: `policyfuzz fuzz --migrations ${options.migrations} --only ${r.id}` });
        }
      }
    } finally {
      await env.close();
    }
  }

  if (ssoIds.length && interrupted()) {
    for (const id of ssoIds) results.push(notReached({ id, title: id }, 'sso', seed, 'interrupted'));
  } else if (ssoIds.length && maxFailuresReached()) notRun.push(...ssoIds);
  else if (ssoIds.length) {
    watchInterrupt();
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
  if (results.some((r) => r.area === 'data')) for (const line of COUNTS_LEGEND) chatter(line);
  printFailures(results, savedFor, out, colors);
  printFindings(results, savedFor, baselineChecks, out);
  if (notRun.length) out(`\nstopped after ${options.maxFailures} failing propert${options.maxFailures === 1 ? 'y' : 'ies'} (--max-failures): not run ${notRun.join(', ')}`);
  if (baseline && options.updateBaseline) {
    const updated = updatedBaseline(baseline, results, baselineChecks);
    saveBaseline(options.baseline!, updated);
    out(`\nbaseline ${options.baseline} written: ${updated.findings.length} accepted finding(s)`);
  }

  const filesOf = (s: SavedFor | undefined) => ({
    id: s?.saved?.record.id ?? null,
    replay: s ? `${s.saved ? `policyfuzz replay ${s.saved.json}\n` : ''}${s.replay}` : '',
    file: s?.saved?.json ?? null,
    reproSql: s?.saved?.sql && existsSync(s.saved.sql) ? readFileSync(s.saved.sql, 'utf8') : null,
    regressionFile: s?.saved?.regression ?? null,
  });
  const summaries: PropertySummary[] = results.map((r) =>
    withOtherFindings(propertySummary(r, filesOf(savedFor.get(r.id))), r, (f) => propertySummary({ ...r, failure: f }, filesOf(savedFor.get(findingKey(r, f)))).failures),
  );
  const summary = runSummary(summaries, {
    policyfuzzVersion: POLICYFUZZ_VERSION,
    seed,
    profile: profileName,
    shard,
    migrations: properties.length ? options.migrations : null,
    migrationsDigest: digest,
    startedAt,
    timeBudgetMs: timeBudgetMs ?? null,
    interrupted: interruptedBy ?? null,
  });
  const files = writeReports(reportDir, summary, { formats: options.report, migrations });
  stopWatching();
  if (options.report?.includes('matrix') || options.verbose) chatter(`\naccess matrix (who can do what, judged by the model):\n\n${matrixMarkdown(accessMatrix(summary.properties))}`);
  const budgetHit = results.filter((r) => r.stopped === 'time budget');
  if (budgetHit.length) chatter(`\ntime budget reached: ${summary.totals.cases} cases ran (${budgetHit.map((r) => `${r.id} ${r.cases}${r.planned !== undefined ? `/${r.planned}` : ''}`).join(', ')})`);
  if (interruptedBy) out(`\ninterrupted by ${interruptedBy}: the reports cover what completed before it`);
  chatter(`\nreports: ${reportFileList(files).join(', ')}`);
  const count = (...statuses: PropertyResult['status'][]) => results.filter((r) => statuses.includes(r.status)).length;
  // With --update-baseline every finding of this run is now accepted.
  const failed = results.filter((r) => r.status === 'error' || (r.status === 'failed' && !(options.updateBaseline && r.findings?.length))).length;
  const partial = count('partial');
  const unreached = count('not-reached');
  const na = count('not-applicable');
  const half = (area: 'data' | 'sso') => {
    const own = results.filter((r) => r.area === area);
    const passed = own.filter((r) => r.status === 'passed').length;
    return own.length ? `${area === 'data' ? 'data layer' : 'SSO'} ${passed}/${own.length} passed (${own.reduce((n, r) => n + r.cases, 0)} cases)` : undefined;
  };
  const halves = [half('data'), half('sso')].filter(Boolean);
  if (halves.length > 1) chatter(`\n${halves.join(' · ')}`);
  const verdict = `${results.length - failed - partial - unreached - na} passed, ${failed} failed${partial ? `, ${partial} partial` : ''}${unreached ? `, ${unreached} not reached` : ''}${na ? `, ${na} not applicable` : ''}${notRun.length ? `, ${notRun.length} not run` : ''} (seed ${seed})${interruptedBy ? ` - interrupted by ${interruptedBy}` : ''}`;
  out(`\n${failed ? colors.red(verdict) : colors.green(verdict)}`);
  if (options.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  if (interruptedBy) return INTERRUPTED_EXIT_CODE;
  return failed || (options.failOnPartial && partial + unreached) ? 1 : 0;
}

export function registerFuzzCommand(program: Command, run: (action: () => Promise<number>) => Promise<void>, pack: PackSource): void {
  const p = PROFILES;
  program
    .command('fuzz', { isDefault: true })
    .description('run the properties (data layer R01…R20; SSO S01… with --sso) against a migrations folder on a scratch database')
    .addHelpText('after', `\nThe table of results:\n${COUNTS_LEGEND.map((l) => `  ${l}`).join('\n')}\nStatus: PASS, FAIL, ERROR (a harness error, no verdict), N/A (the target lacks the rule's tables),\n  PARTIAL (cut short below --min-cases), NOT REACHED (never started).\nExit: 0 every property holds, 1 one failed, 2 bad input or environment, 130 interrupted.`)
    .option('--profile <name>', `pr (default: ${p.pr.description}) or nightly (${p.nightly.description})`, profileValue)
    .option('--seed <n>', 'seed for generation (default: a fresh one, printed)', seedValue)
    .option('--runs <n>', `cases per property (pr ${p.pr.runs}, nightly ${p.nightly.runs})`, positiveInt('--runs'))
    .option('--workers <n>', `parallel database connections (pr ${p.pr.workers}, nightly ${p.nightly.workers})`, positiveInt('--workers'))
    .option('--time-budget <duration>', `stop generating after this long, e.g. 90s, 20m (pr ${p.pr.timeBudgetMs / 1000}s, nightly ${p.nightly.timeBudgetMs / 60_000}m)`, durationValue)
    .option('--shard <i/n>', 'run shard i of n (a CI matrix); combine the shards with merge-reports', shardValue)
    .option('--database-url <url>', 'use this Postgres server (default: $DATABASE_URL, else testcontainers, else a local server)')
    .option('--provider <name>', 'force where Postgres comes from: testcontainers or local', providerValue)
    .option('--migrations <dir...>', `folders of .sql migrations, applied in order (default: supabase/migrations when there is one here, else ${defaultMigrationsOption(pack)})`)
    .option('--config <file>', 'a project config (policyfuzz.config.json or .ts); default: the one in this folder, if any')
    .option('--pack <module>', "a project pack module (.ts/.js exporting extendPack(…) or definePack(…) from 'policyfuzz'); default: the config's \"pack\", else the bundled reference pack")
    .option('--skip <file...>', 'migration file names to leave out (data repairs that cannot apply to an empty database)')
    .option('--reference', 'run on the bundled reference database, even inside a project with a config or supabase/migrations')
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
    .option('--baseline <file>', 'accepted findings by signature (JSON, each with a reason): the run fails only on others and reports entries that are FIXED')
    .option('--update-baseline', 'with --baseline: write the file from this run (new findings added, FIXED entries removed)')
    .option('--min-cases <n>', `cases a property needs for a verdict when the budget cuts it short (pr ${p.pr.minCases}, nightly ${p.nightly.minCases}); below it: PARTIAL`, positiveInt('--min-cases'))
    .option('--fail-on-partial', 'exit 1 when a property is PARTIAL or NOT REACHED (the budget or an interrupt cut it short)')
    .option('--exclude <ids>', 'comma-separated property ids to leave out, e.g. R07,S10', propertyIdList('--exclude'))
    .option('--max-failures <n>', 'stop after n failing properties (the rest are named as not run)', positiveInt('--max-failures'))
    .option('--report <formats>', `reports to write: ${REPORT_FORMATS.join(',')} (default ${DEFAULT_REPORT_FORMATS.join(',')}; matrix also prints the access matrix)`, reportFormats)
    .option('--json', 'print summary.json to stdout (everything else goes to stderr)')
    .option('-q, --quiet', 'print only the failures and the final line')
    .option('-v, --verbose', 'also print the access matrix')
    .option('--no-color', 'no colour (also when NO_COLOR is set or the output is not a terminal)')
    .action((opts: Omit<FuzzOptions, 'pack' | 'migrations'> & TargetChoice) =>
      run(async () => {
        if (opts.quiet && opts.verbose) throw new UsageError('--quiet and --verbose contradict each other: give one');
        // --json keeps stdout for the summary: the human output goes to stderr.
        const out = opts.json ? (line: string) => void process.stderr.write(`${line}\n`) : console.log;
        const chosen = await chooseTarget(pack, opts);
        return fuzz({ ...opts, pack: chosen.pack, migrations: chosen.migrations, target: chosen.target }, out);
      }),
    );
}
