/**
 * A pack's data-layer properties run on a target (the data half of `fuzz`), in phases on one session:
 *   replay saved failures → settle what needs no generation (not applicable, a settings misfit,
 *   a saved failure that still fails) → generate (with a budget: every property's minimum first,
 *   then the rest) → verdicts (coverage gate, budget, baseline) → catalog properties.
 * Each verdict is emitted as `property-finished`; the reporters save, print and write it.
 */
import { CaseMismatch, type StepMismatch } from '../runner/check-case.ts';
import type { FailureRecord } from '../failures/schema.ts';
import { NotRealizable } from '../errors.ts';
import { applyBaseline, checkBaseline, type Baseline, type BaselineCheck } from '../findings/baseline.ts';
import { isSideError } from '../findings/signature.ts';
import type { RunEvents } from '../report/run-events.ts';
import type { RunPhases } from '../report/summary.ts';
import { budgetVerdict, notReached, runBreadthFirst, shardMinimum, tranchesOf } from '../runner/budget.ts';
import type { CatalogProperty } from '../runner/catalog-property.ts';
import { applyCoverageGate, COVERAGE_ON_MERGE_NOTE } from '../runner/coverage.ts';
import type { DataProperty } from '../runner/data-property.ts';
import type { Environment } from '../runner/environment.ts';
import { seededModelTablesNote } from '../target/fixtures.ts';
import type { PropertyResult } from '../runner/result.ts';
import { plannedRuns } from '../runner/run-data-property.ts';
import { ruleAllowed, type Target } from '../config/target.ts';
import type { Oracle, Pack } from '../pack.ts';
import type { ServerChoice } from '../db/providers/index.ts';
import type { RunControl } from './control.ts';
import { openSession, type Session } from './session.ts';
import { computedViews, writtenTables } from '../mapping/mapping.ts';

/** A saved failure file and its record. */
export interface SavedCase {
  record: FailureRecord;
  file: string;
}

/** What a data run needs to know: the pack on its target, the numbers, what to replay first. */
export interface DataRunPlan {
  pack: Pack;
  target: Target;
  oracle: Oracle;
  seed: number;
  runs: number;
  workers: number;
  /** This run's worker lanes among all shards' (engine/runner/run-data-property.ts). */
  lanes: { first: number; count: number; total: number };
  /** Catalog properties run on the first shard only. */
  shardIndex: number;
  timeBudgetMs?: number;
  /** Of the budget, kept for the SSO half that runs afterwards. */
  ssoReserveMs: number;
  /**
   * What the SSO half needs at the machine's present load (asked when the data properties would
   * go past their minimums): they go no further once that is all the budget has left.
   */
  ssoNeedsMs?: () => number;
  /** Why ssoNeedsMs is above the calibrated reserve now (the load factor and how to override it), or undefined: named in the note of a property it cut. */
  ssoNeedsNote?: () => string | undefined;
  minCases: number;
  /**
   * Stop a property at or past its minimum once saturated (engine/runner/budget.ts earlyStopReason),
   * judged on all its lanes' cases: a shard that runs it holds them all (cli/fuzz/plan.ts splits by
   * property then). Off for a lone property: one the user selected alone (`selected`).
   */
  earlyStop?: boolean;
  /**
   * How many data-layer properties the run selected (--only, --exclude, the config), over all
   * shards: what "a lone property" is judged by, not by what is left to generate once saved
   * failures and properties not applicable are settled.
   */
  selected: number;
  /** Replays one case (`--path`) instead of generating. */
  path?: string;
  failuresDir: string;
  baseline?: Baseline;
  properties: DataProperty[];
  catalogProperties: CatalogProperty[];
  onlyData?: string[];
  savedData: SavedCase[];
  excluded(id: string): boolean;
  server: ServerChoice;
}

export interface DataHalf {
  results: PropertyResult[];
  baselineChecks: BaselineCheck[];
  /** Where the data half's time went (summary.json `timings`); `startupMs` counts from `startedAt`. */
  phases: RunPhases;
  /** What the run could not set up as the target is (summary.json `warnings`): printed under --quiet too. */
  warnings?: string[];
}

/**
 * Whether early stop applies to the run: asked for, not replaying one case, and not a lone
 * property (`--only R04` shares the run with none: it runs every case and reports every finding).
 * Lone as selected: a saved failure replayed or a property not applicable does not change the plan.
 */
export function earlyStopApplies(plan: Pick<DataRunPlan, 'earlyStop' | 'path' | 'selected'>): boolean {
  return plan.earlyStop === true && !plan.path && plan.selected > 1;
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
    failure: { seed: record.seed, path: record.path, counterexample: record.case, expected: mismatch.expected, actual: { outcome: mismatch.actual, response: mismatch.response }, message, step: mismatch.step, ...(mismatch.sentAs ? { sentAs: mismatch.sentAs } : {}), ...(mismatch.masked?.length ? { masked: mismatch.masked } : {}) },
  };
}

/**
 * Saved failures first: a case that still fails is its property's verdict. A side error (a NOT NULL
 * or CHECK error where the model's guard refuses) is one only while none of the property's other
 * saved cases still fails: the exploit leads, as in the run that found both.
 */
async function replaySavedFailures(plan: DataRunPlan, session: Session, events: RunEvents): Promise<Map<string, { result: PropertyResult; saved: SavedCase }>> {
  const stillFailing = new Map<string, { result: PropertyResult; saved: SavedCase }>();
  /** Properties whose verdict so far is a side error: their other saved cases are still replayed. */
  const sideErrorOnly = new Set<string>();
  const accepted = new Set(plan.baseline?.findings.map((e) => e.signature));
  const digest = session.env.template.digest;
  if (plan.savedData.length) events.emit({ type: 'note', text: `replaying ${plan.savedData.length} saved failure(s) from ${plan.failuresDir} first` });
  for (const saved of plan.savedData) {
    const { file, record } = saved;
    if ((stillFailing.has(record.property) && !sideErrorOnly.has(record.property)) || (record.signature && accepted.has(record.signature))) continue;
    const t = Date.now();
    let mismatch: StepMismatch | undefined;
    try {
      mismatch = await session.replay(record);
    } catch (error) {
      // Saved before the pack, config or schema changed: it no longer says anything about this target, and the run goes on.
      if (!(error instanceof NotRealizable)) throw error;
      events.emit({ type: 'note', text: `  ${file}: not realizable on this target any more (${error.reason}): left aside; delete it if it is stale` });
      continue;
    }
    const digestChange = record.migrationsDigest && record.migrationsDigest !== digest ? ` (migrations changed since it was saved: digest ${record.migrationsDigest} → ${digest})` : undefined;
    events.emit({ type: 'saved-failure-replayed', file, property: record.property, stillFails: Boolean(mismatch), ...(digestChange ? { digestChange } : {}) });
    if (!mismatch || (stillFailing.has(record.property) && isSideError(mismatch))) continue;
    stillFailing.set(record.property, { result: resultFromSaved(record, file, plan.seed, mismatch, Date.now() - t), saved });
    if (isSideError(mismatch)) sideErrorOnly.add(record.property);
    else sideErrorOnly.delete(record.property);
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

/** Each property fitted to the target (session.fit), or settled without generating: not applicable, a misfit, a saved failure that still fails. */
function settle(plan: DataRunPlan, session: Session, stillFailing: Map<string, { result: PropertyResult; saved: SavedCase }>): Settled {
  const out: Settled = { settled: new Map(), toGenerate: [], partsLeftOut: new Map() };
  for (const fitted of session.fit(plan.properties, plan.seed)) {
    const id = fitted.listed.id;
    if (!fitted.runnable) {
      out.settled.set(id, { result: fitted.result });
      continue;
    }
    if (fitted.partial) out.partsLeftOut.set(id, fitted.partial);
    const saved = stillFailing.get(id);
    if (saved) out.settled.set(id, saved);
    else out.toGenerate.push(fitted.property);
  }
  return out;
}

/**
 * Runs the properties' cases; with a budget, breadth first (engine/runner/budget.ts): every
 * property to a first tranche, then to its minimum, then to its full count.
 */
async function generate(plan: DataRunPlan, session: Session, toGenerate: DataProperty[], events: RunEvents, control: RunControl): Promise<Map<string, PropertyResult>> {
  const { runs, lanes, minCases, timeBudgetMs } = plan;
  events.emit({ type: 'generation-started', plannedCases: plan.path ? 1 : toGenerate.length * plannedRuns(runs, lanes) });
  // The budget covers both halves: the SSO properties that run afterwards keep their share.
  const budgetEnd = control.budgetEndsAt(timeBudgetMs);
  const deadline = budgetEnd && timeBudgetMs ? budgetEnd - Math.min(timeBudgetMs / 2, plan.ssoReserveMs) : undefined;
  const runOptions = {
    seed: plan.seed,
    path: plan.path,
    lanes: { first: lanes.first, total: lanes.total },
    stop: control.interrupted,
    onCase: (property: string) => events.emit({ type: 'case-finished', property }),
    onShrink: (property: string, findings: number) => events.emit({ type: 'shrinking-started', property, findings }),
  };
  // Judged on every lane's cases: only where this run holds them all (a shard split by lanes does not).
  const earlyStop = earlyStopApplies(plan) && plan.lanes.count === plan.lanes.total;
  try {
    if ((deadline === undefined && !earlyStop) || plan.path) {
      const generated = new Map<string, PropertyResult>();
      for (const property of toGenerate) {
        if (control.interrupted()) break;
        if (control.maxFailuresReached()) {
          control.notRun.push(property.id);
          continue;
        }
        const r = await session.run(property, { ...runOptions, runs });
        generated.set(property.id, r);
        control.record(r);
      }
      return generated;
    }
    return await runBreadthFirst({
      properties: toGenerate,
      // One property has no other to share the budget with: one run, no tranches (unless early stop judges it at its minimum).
      tranches: toGenerate.length > 1 || earlyStop ? tranchesOf(runs, minCases, earlyStop) : [runs],
      deadline: deadline ?? Number.POSITIVE_INFINITY,
      ...(budgetEnd && plan.ssoNeedsMs ? { deepeningDeadline: { above: minCases, at: () => budgetEnd - plan.ssoNeedsMs!(), ...(plan.ssoNeedsNote ? { why: plan.ssoNeedsNote } : {}) } } : {}),
      ...(earlyStop ? { earlyStopFrom: minCases } : {}),
      // The next property's lanes start as this one's free their workers, unless a verdict may leave it out.
      overlap: !control.limitsFailures,
      run: (property, tranche) => session.run(property, { ...runOptions, runs, ...tranche, ...(deadline === undefined ? { deadline: undefined } : {}) }),
      interrupted: control.interrupted,
      leaveOut: (property) => {
        if (!control.maxFailuresReached()) return false;
        control.notRun.push(property.id);
        return true;
      },
      enoughFailures: () => control.maxFailuresReached(),
      onResult: (r) => control.record(r),
    });
  } finally {
    events.emit({ type: 'generation-finished' });
  }
}

/** A generated result's verdict: the coverage gate (left to the merge on a shard), the budget's minimum, then the baseline. */
function verdictOf(plan: DataRunPlan, r: PropertyResult): PropertyResult {
  const sharded = plan.lanes.count < plan.lanes.total;
  const minimum = sharded ? shardMinimum(plan.minCases, plan.lanes) : plan.minCases;
  const gated = plan.path || (r.stopped && r.cases < minimum) ? r : sharded ? withNote(r, COVERAGE_ON_MERGE_NOTE) : applyCoverageGate(r);
  return applyBaseline([budgetVerdict(gated, minimum, sharded ? plan.minCases : undefined)], plan.baseline ?? { findings: [] })[0];
}

function withNote(r: PropertyResult, note: string): PropertyResult {
  return r.status === 'passed' ? { ...r, note: r.note ? `${r.note}; ${note}` : note } : r;
}

/** The catalog properties this run checks: `--only`, the config and `--exclude` allowing; on the first shard alone, never for one replayed case. */
export function wantedCatalogProperties(plan: Pick<DataRunPlan, 'catalogProperties' | 'onlyData' | 'target' | 'excluded' | 'path' | 'shardIndex'>): CatalogProperty[] {
  if (plan.path || plan.shardIndex !== 1) return [];
  return plan.catalogProperties.filter((c) => (!plan.onlyData || plan.onlyData.includes(c.id)) && ruleAllowed(plan.target.config, `${c.id}:catalog`) && !plan.excluded(c.id));
}

/** `startedAt`: when the run started (epoch ms), for its start-up time; default now. */
export async function runDataProperties(plan: DataRunPlan, events: RunEvents, control: RunControl, startedAt = Date.now()): Promise<DataHalf> {
  const results: PropertyResult[] = [];
  const catalog = wantedCatalogProperties(plan);
  if (!plan.properties.length && !catalog.length) return { results, baselineChecks: [], phases: {} };
  const session = await openSession({ ...plan.server, target: plan.target, pack: plan.pack, oracle: plan.oracle, workers: plan.workers, log: (text) => events.emit({ type: 'note', text }) });
  const env: Environment = session.env;
  const { serverMs, templateMs, cloneMs, workersMs } = env.startup;
  const migrationsMs = Math.min(templateMs, env.template.migrationsMs);
  const phases: RunPhases = { startupMs: Date.now() - startedAt, serverMs, migrationsMs, templateMs: templateMs - migrationsMs, workersMs: cloneMs + workersMs };
  const lap = (phase: keyof RunPhases, since: number) => (phases[phase] = (phases[phase] ?? 0) + Date.now() - since);
  try {
    events.emit({ type: 'note', text: env.readyNote });
    // The workers' sessions may resolve names otherwise than the migrations did: said even under --quiet, and kept in summary.json.
    const warnings = env.settingsNote ? [env.settingsNote] : [];
    for (const text of warnings) events.emit({ type: 'note', text: `warning: ${text}`, always: true });
    const seeded = seededModelTablesNote(env.workers[0].tx.fixturePlan, writtenTables(plan.oracle.model), plan.oracle.model.fixtureOrder, computedViews(plan.oracle.model));
    if (seeded) events.emit({ type: 'note', text: seeded });
    control.watchInterrupts();
    let since = Date.now();
    const stillFailing = await replaySavedFailures(plan, session, events);
    lap('replayMs', since);
    const { settled, toGenerate, partsLeftOut } = settle(plan, session, stillFailing);
    since = Date.now();
    const generated = await generate(plan, session, toGenerate, events, control);
    lap('propertiesMs', since);
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
          const gated = verdictOf(plan, plan.path ? pass : { ...pass, planned });
          const leftOut = partsLeftOut.get(listed.id);
          // Said on every shard and in one run alike, after the other notes (merge-reports keeps it once).
          finish(leftOut ? { ...gated, note: [gated.note, leftOut].filter(Boolean).join('; ') } : gated);
        }
      }
    }
    const baselineChecks = plan.baseline ? await checkBaseline(env.workers[0], session.oracle, plan.baseline, results) : [];
    // Catalog properties (grants of every function and table, the security lints): one pass.
    if (!control.interrupted() && !control.maxFailuresReached()) {
      since = Date.now();
      for (const property of catalog) {
        const r = await session.catalog(property, plan.seed);
        finish({ ...r, id: `${r.id}:catalog` });
      }
      lap('catalogMs', since);
    }
    return { results, baselineChecks, phases, ...(warnings.length ? { warnings } : {}) };
  } finally {
    await session.close();
  }
}
