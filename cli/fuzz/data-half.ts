/**
 * The data-layer half of `fuzz`, in phases on one database environment:
 *   replay saved failures → settle what needs no generation (not applicable, a settings misfit,
 *   a saved failure that still fails) → generate (with a budget: every property's minimum first,
 *   then the rest) → verdicts (coverage gate, budget, baseline) → catalog properties.
 * Each verdict is emitted as `property-finished`; the reporters save, print and write it.
 */
import { CaseMismatch, type StepMismatch } from '../../engine/runner/check-case.ts';
import { replayDataCaseOnce } from '../../engine/failures/replay.ts';
import type { FailureRecord } from '../../engine/failures/schema.ts';
import { applyBaseline, checkBaseline, type BaselineCheck } from '../../engine/findings/baseline.ts';
import type { RunEvents } from '../../engine/report/run-events.ts';
import { fitToTarget, notApplicable, partialNote } from '../../engine/runner/applicability.ts';
import { budgetVerdict, joinPasses, notReached, shareOfBudget } from '../../engine/runner/budget.ts';
import { runCatalogProperty } from '../../engine/runner/catalog-property.ts';
import { applyCoverageGate } from '../../engine/runner/coverage.ts';
import type { DataProperty } from '../../engine/runner/data-property.ts';
import { openEnvironment, type Environment } from '../../engine/runner/environment.ts';
import type { PropertyResult } from '../../engine/runner/result.ts';
import { plannedRuns, runDataProperty } from '../../engine/runner/run-data-property.ts';
import { misfitResult, vocabularyMisfits } from '../../engine/runner/vocabulary-fit.ts';
import { ruleAllowed } from '../../engine/config/target.ts';
import { ssoReserveMs } from '../profiles.ts';
import type { RunControl } from './control.ts';
import type { RunPlan, SavedCase } from './plan.ts';

export interface DataHalf {
  results: PropertyResult[];
  baselineChecks: BaselineCheck[];
}

/** A saved failure that still fails, reported as the property's failure without generating anew. */
function resultFromSaved(record: FailureRecord, file: string, seed: number, mismatch: StepMismatch, ms: number): PropertyResult {
  const { message } = new CaseMismatch(mismatch);
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
    failure: { seed: record.seed, path: record.path, counterexample: record.case, expected: mismatch.expected, actual: { outcome: mismatch.actual, response: mismatch.response }, message, step: mismatch.step },
  };
}

/** Saved failures first: a case that still fails is its property's verdict. */
async function replaySavedFailures(plan: RunPlan, env: Environment, events: RunEvents): Promise<Map<string, { result: PropertyResult; saved: SavedCase }>> {
  const stillFailing = new Map<string, { result: PropertyResult; saved: SavedCase }>();
  const accepted = new Set(plan.baseline?.findings.map((e) => e.signature));
  if (plan.savedData.length) events.emit({ type: 'note', text: `replaying ${plan.savedData.length} saved failure(s) from ${plan.failuresDir} first` });
  for (const saved of plan.savedData) {
    const { file, record } = saved;
    if (stillFailing.has(record.property) || (record.signature && accepted.has(record.signature))) continue;
    const t = Date.now();
    const mismatch = await replayDataCaseOnce(env.workers[0], record, plan.oracle);
    const digestChange = record.migrationsDigest && record.migrationsDigest !== env.template.digest ? ` (migrations changed since it was saved: digest ${record.migrationsDigest} → ${env.template.digest})` : undefined;
    events.emit({ type: 'saved-failure-replayed', file, property: record.property, stillFails: Boolean(mismatch), ...(digestChange ? { digestChange } : {}) });
    if (mismatch) stillFailing.set(record.property, { result: resultFromSaved(record, file, plan.seed, mismatch, Date.now() - t), saved });
  }
  return stillFailing;
}

interface Settled {
  /** Verdicts that need no generation, by property id. */
  settled: Map<string, { result: PropertyResult; saved?: SavedCase }>;
  toGenerate: DataProperty[];
  /** Parts of a property left out because the target lacks what they call (shown in its note). */
  partsLeftOut: Map<string, string>;
}

/** Each property fitted to the target's tables and functions (under its mapping), or settled without generating. */
function settle(plan: RunPlan, env: Environment, stillFailing: Map<string, { result: PropertyResult; saved: SavedCase }>): Settled {
  const misfits = [...vocabularyMisfits(plan.oracle, env.workers[0].tx.fixturePlan.shapes), ...(plan.pack.settingsMisfits?.(plan.oracle.settings) ?? [])];
  const out: Settled = { settled: new Map(), toGenerate: [], partsLeftOut: new Map() };
  for (const listed of plan.properties) {
    const { property, missing, leftOut } = fitToTarget(listed, env.cache, plan.target.fixtures?.mapping);
    const partial = partialNote(leftOut);
    if (partial) out.partsLeftOut.set(property.id, partial);
    const saved = stillFailing.get(property.id);
    if (missing.length) out.settled.set(property.id, { result: notApplicable(property, missing, plan.seed) });
    else if (misfits.length) out.settled.set(property.id, { result: misfitResult(property, misfits, plan.seed, plan.target.config?.file ?? 'the config') });
    else if (saved) out.settled.set(property.id, saved);
    else out.toGenerate.push(property);
  }
  return out;
}

/** Runs the properties' cases; with a budget, every property first gets its minimum (engine/runner/budget.ts). */
async function generate(plan: RunPlan, env: Environment, toGenerate: DataProperty[], events: RunEvents, control: RunControl): Promise<Map<string, PropertyResult>> {
  const { options, runs, lanes, minCases, timeBudgetMs } = plan;
  events.emit({ type: 'generation-started', plannedCases: options.path ? 1 : toGenerate.length * plannedRuns(runs, lanes) });
  // The budget covers both halves: the SSO properties that run afterwards keep their share.
  const ssoReserve = plan.ssoIds.length ? ssoReserveMs(plan.ssoIds.length, options.ssoRuns ?? plan.profile.ssoRuns) : 0;
  const deadline = timeBudgetMs ? Date.now() + Math.max(timeBudgetMs / 2, timeBudgetMs - ssoReserve) : undefined;
  const outOfTime = () => deadline !== undefined && Date.now() >= deadline;
  const runOptions = {
    seed: plan.seed,
    oracle: plan.oracle,
    path: options.path,
    lanes: { first: lanes.first, total: lanes.total },
    stop: control.interrupted,
    onCase: (property: string) => events.emit({ type: 'case-finished', property }),
  };
  const generated = new Map<string, PropertyResult>();
  try {
    const twoPasses = deadline !== undefined && !options.path && toGenerate.length > 1 && minCases < runs;
    for (const [i, property] of toGenerate.entries()) {
      if (control.interrupted() || outOfTime()) break;
      if (control.maxFailuresReached()) {
        control.notRun.push(property.id);
        continue;
      }
      const r = await runDataProperty(env, property, { ...runOptions, runs: twoPasses ? minCases : runs, deadline: deadline && shareOfBudget(deadline, toGenerate.length - i) });
      generated.set(property.id, r);
      control.record(r);
    }
    if (twoPasses) {
      const rest = toGenerate.filter((p) => generated.get(p.id)?.status === 'passed' && !generated.get(p.id)?.stopped);
      for (const [i, property] of rest.entries()) {
        if (control.interrupted() || outOfTime()) break;
        const r = await runDataProperty(env, property, { ...runOptions, runs, skipFirst: minCases, deadline: shareOfBudget(deadline!, rest.length - i) });
        generated.set(property.id, joinPasses(generated.get(property.id)!, r));
      }
      // Those the second pass never reached ran their minimum only: cut short all the same.
      for (const property of rest) {
        const r = generated.get(property.id)!;
        if (r.status === 'passed' && r.cases < plannedRuns(runs, lanes) && !r.stopped) generated.set(property.id, { ...r, stopped: control.interrupted() ? 'interrupted' : 'time budget' });
      }
    }
  } finally {
    events.emit({ type: 'generation-finished' });
  }
  return generated;
}

/** A generated result's verdict: the coverage gate, the budget's minimum, then the baseline. */
function verdictOf(plan: RunPlan, r: PropertyResult): PropertyResult {
  const gated = plan.options.path || (r.stopped && r.cases < plan.minCases) ? r : applyCoverageGate(r);
  return applyBaseline([budgetVerdict(gated, plan.minCases)], plan.baseline ?? { findings: [] })[0];
}

export async function runDataHalf(plan: RunPlan, events: RunEvents, control: RunControl): Promise<DataHalf> {
  const results: PropertyResult[] = [];
  if (!plan.properties.length) return { results, baselineChecks: [] };
  const { options } = plan;
  const env = await openEnvironment({
    databaseUrl: options.databaseUrl,
    provider: options.provider,
    migrations: plan.migrations,
    workers: plan.workers,
    log: (text) => events.emit({ type: 'note', text }),
    supabaseCompat: plan.target.supabaseCompat,
    fixtures: plan.target.fixtures,
    api: plan.target.api,
  });
  try {
    events.emit({ type: 'note', text: `ready in ${env.startupMs} ms` });
    control.watchInterrupts();
    const { settled, toGenerate, partsLeftOut } = settle(plan, env, await replaySavedFailures(plan, env, events));
    const generated = await generate(plan, env, toGenerate, events, control);
    const finish = (result: PropertyResult, savedFile?: SavedCase) => {
      results.push(result);
      control.record(result);
      events.emit({ type: 'property-finished', result, environment: env, ...(savedFile ? { savedFile } : {}) });
    };
    const planned = plannedRuns(plan.runs, plan.lanes);
    for (const listed of plan.properties) {
      const s = settled.get(listed.id);
      if (s) finish(s.result, s.saved);
      else if (control.notRun.includes(listed.id)) continue;
      else {
        const pass = generated.get(listed.id);
        if (!pass) finish(notReached(listed, 'data', plan.seed, control.interrupted() ? 'interrupted' : 'time budget', planned));
        else {
          const gated = verdictOf(plan, options.path ? pass : { ...pass, planned });
          const leftOut = partsLeftOut.get(listed.id);
          finish(leftOut && !gated.note ? { ...gated, note: leftOut } : gated);
        }
      }
    }
    const baselineChecks = plan.baseline ? await checkBaseline(env.workers[0], plan.oracle, plan.baseline, results) : [];
    // Catalog properties (grants of every function and table): one pass, on the first shard.
    if (!options.path && plan.shard.index === 1 && !control.interrupted() && !control.maxFailuresReached()) {
      const wanted = plan.catalogProperties.filter((c) => (!plan.onlyData || plan.onlyData.includes(c.id)) && ruleAllowed(plan.target.config, `${c.id}:catalog`) && !plan.excluded(c.id));
      for (const property of wanted) {
        const r = await runCatalogProperty(env, property, { seed: plan.seed, settings: plan.oracle.settings });
        finish({ ...r, id: `${r.id}:catalog` });
      }
    }
    return { results, baselineChecks };
  } finally {
    await env.close();
  }
}
