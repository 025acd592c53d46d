/**
 * The last phase of `fuzz`: the baseline file (with --update-baseline), the run summary that every
 * report is written from, and the verdict: the line CI reads and the exit code.
 */
import { existsSync, readFileSync } from 'node:fs';
import { INTERRUPTED_EXIT_CODE } from '../../engine/db/cleanup.ts';
import { saveBaseline, updatedBaseline, type BaselineCheck } from '../../engine/findings/baseline.ts';
import { findingKey, withOtherFindings } from '../../engine/findings/report.ts';
import type { SavedFor } from '../../engine/report/console.ts';
import type { RunVerdict } from '../../engine/report/run-events.ts';
import { propertySummary, runSummary, type PropertySummary, type RunPhases, type RunSummary } from '../../engine/report/summary.ts';
import type { PropertyResult } from '../../engine/run/index.ts';
import { POLICYFUZZ_VERSION } from '../paths.ts';
import type { RunPlan } from './plan.ts';

/** With --update-baseline: this run's findings in, FIXED entries out. */
export function writeBaseline(plan: RunPlan, results: PropertyResult[], checks: BaselineCheck[]): { file: string; findings: number } | undefined {
  if (!plan.baseline || !plan.options.updateBaseline) return undefined;
  const updated = updatedBaseline(plan.baseline, results, checks);
  saveBaseline(plan.options.baseline!, updated);
  return { file: plan.options.baseline!, findings: updated.findings.length };
}

export function summaryOf(plan: RunPlan, results: PropertyResult[], saved: ReadonlyMap<string, SavedFor>, interruptedBy: string | undefined, phases: RunPhases = {}, warnings: readonly string[] = []): RunSummary {
  const filesOf = (s: SavedFor | undefined) => ({
    id: s?.saved?.record.id ?? null,
    replay: s ? `${s.saved ? `policyfuzz replay ${s.saved.json}\n` : ''}${s.replay}` : '',
    file: s?.saved?.json ?? null,
    reproSql: s?.saved?.sql && existsSync(s.saved.sql) ? readFileSync(s.saved.sql, 'utf8') : null,
    regressionFile: s?.saved?.regression ?? null,
  });
  const summaries: PropertySummary[] = results.map((r) =>
    withOtherFindings(propertySummary(r, filesOf(saved.get(r.id))), r, (f) => propertySummary({ ...r, failure: f }, filesOf(saved.get(findingKey(r, f)))).failures),
  );
  return runSummary(summaries, {
    policyfuzzVersion: POLICYFUZZ_VERSION,
    seed: plan.seed,
    profile: plan.profileName,
    shard: plan.shard,
    migrations: plan.properties.length ? plan.migrationsOption : null,
    migrationsDigest: plan.digest,
    startedAt: plan.startedAt,
    timeBudgetMs: plan.timeBudgetMs ?? null,
    interrupted: interruptedBy ?? null,
    warnings,
    phases,
    results,
  });
}

export function runVerdict(plan: RunPlan, results: PropertyResult[], notRun: string[], interruptedBy: string | undefined): RunVerdict {
  const count = (...statuses: PropertyResult['status'][]) => results.filter((r) => statuses.includes(r.status)).length;
  // With --update-baseline every finding of this run is now accepted.
  const failed = results.filter((r) => r.status === 'error' || (r.status === 'failed' && !(plan.options.updateBaseline && r.findings?.length))).length;
  const partial = count('partial');
  const notReached = count('not-reached');
  const notApplicable = count('not-applicable');
  const noVerdict = count('no-verdict');
  const passed = results.length - failed - partial - notReached - notApplicable - noVerdict;
  const line =
    `${passed} passed, ${failed} failed${noVerdict ? `, ${noVerdict} no verdict (every case dropped)` : ''}${partial ? `, ${partial} partial` : ''}${notReached ? `, ${notReached} not reached` : ''}${notApplicable ? `, ${notApplicable} not applicable` : ''}` +
    `${notRun.length ? `, ${notRun.length} not run` : ''} (seed ${plan.seed})${interruptedBy ? ` - interrupted by ${interruptedBy}` : ''}`;
  // A property that checked nothing (every case dropped) fails the run: its silence is no pass.
  const exitCode = interruptedBy ? INTERRUPTED_EXIT_CODE : failed || noVerdict || (plan.options.failOnPartial && partial + notReached) ? 1 : 0;
  return { passed, failed, partial, notReached, notApplicable, ...(noVerdict ? { noVerdict } : {}), notRun, line, exitCode };
}
