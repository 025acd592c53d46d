/**
 * The JSON summary of a run (`summary.json`): per property its cases, outcome counts
 * (allowed / filtered / rejected / errored for the data layer), failures and time. The JUnit
 * and HTML reports are rendered from it, and `merge-reports` combines the summaries of shards.
 */
import { readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { UsageError } from '../errors.ts';
import type { PropertyResult } from '../runner/result.ts';
import { accessMatrix } from './matrix.ts';
import { applyCoverageGate, COVERAGE_ON_MERGE_NOTE, untakenBranches } from '../runner/coverage.ts';
import { MAX_FINDINGS, moreFindingsNote, oneFindingPerSignature } from '../findings/cap.ts';
import { acceptedNote, addCounts, dropNotes, noteWithoutCounted, shortfallText, takeShortfall } from '../runner/run-data-property.ts';

export const SUMMARY_FORMAT = 'policyfuzz-summary';

const json = z.json();

const caseSize = z.object({ users: z.number().int(), rows: z.number().int(), steps: z.number().int() });

export const FailureSummarySchema = z.object({
  /** The saved failure's id (its file name), when it was saved. */
  id: z.string().nullable(),
  seed: z.number().int(),
  path: z.string(),
  message: z.string(),
  step: z.number().int().nullable(),
  case: json,
  /** Data layer: the case as first found, before shrinking (`case` is the shrunk one, of the same signature). */
  unshrunk: json.optional(),
  expected: json,
  actual: json,
  /** The command that re-runs it. */
  replay: z.string(),
  file: z.string().nullable(),
  /** The psql repro's text (kept in the summary so a merged report can show it). */
  reproSql: z.string().nullable(),
  regressionFile: z.string().nullable(),
  /** Columns the server assigns: not compared, so left out of the diff. */
  masked: z.array(z.string()).optional(),
  /** Data layer: the differing step went to a table sent as SQL (mapping `via: "sql"`), not through the API. */
  sentAs: z.literal('sql').optional(),
  /** Data layer: what kind of disagreement it is (engine/findings/signature.ts); a merge keeps one finding per signature. */
  signature: z.string().optional(),
  /** Data layer: a side error (both refused, other codes: signature.ts isSideError), listed after the others. */
  side: z.boolean().optional(),
  /** Data layer: the case's size as first found and once shrunk (users, fixture rows, steps). */
  sizes: z.object({ before: caseSize, after: caseSize }).optional(),
});

export const PropertySummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  area: z.enum(['data', 'sso']),
  status: z.enum(['passed', 'failed', 'not-applicable', 'error', 'partial', 'not-reached', 'no-verdict']),
  cases: z.number().int().min(0),
  /** Cases it was to run: with `cases`, how much of the property ran (null: not known, e.g. catalog checks). */
  planned: z.number().int().min(0).nullable().optional(),
  counts: z.record(z.string(), z.number()),
  /** Data layer: steps per access-matrix cell (`target|command|caller|outcome`). */
  access: z.record(z.string(), z.number()).optional(),
  /** Data layer: per labelled clause of the rule, how often each side was reached. */
  clauses: z.array(z.object({ id: z.string(), label: z.string(), allowed: z.number().int(), refused: z.number().int() })).optional(),
  oneSided: z.enum(['allow', 'deny']).optional(),
  /** Data layer: per branch of the model the property owns, the cases that took it (0: never taken; engine/model/branches.ts). */
  branches: z.array(z.object({ id: z.string(), label: z.string(), taken: z.number().int().min(0) })).optional(),
  /** Data layer: the ids of `branches` never taken in this run (after merge-reports: in any shard). */
  untakenBranches: z.array(z.string()).optional(),
  durationMs: z.number().min(0),
  /** Data layer: stopped saturated at `cases`, at or past its minimum (`--early-stop`), and why. */
  stoppedEarly: z.object({ cases: z.number().int().min(0), reason: z.string() }).optional(),
  /**
   * Data layer: runs taken by cases that could not run on this target (shortfallText), and lanes
   * that stopped drawing; absent: none. Kept apart from the note, which a shard that checked no
   * case words otherwise (no verdict): merge-reports adds them up.
   */
  uncheckedRuns: z.number().int().min(0).optional(),
  lanesGaveUp: z.number().int().min(0).optional(),
  seed: z.number().int(),
  /** Data layer: cases drawn that the target cannot hold, by reason (not counted in `cases`). */
  dropped: z.record(z.string(), z.number()).optional(),
  /** Data layer: what the dropped cases would have reached, by side (`allow`, `deny`) and clause side (`<clause>:allowed|refused`); the coverage gate excuses only these. */
  droppedReach: z.record(z.string(), z.number()).optional(),
  /** Data layer: cases cut before a step a role sweep appended that the target cannot hold, by reason (their steps before it judged, counted in `cases`; not dropped). */
  cut: z.record(z.string(), z.number()).optional(),
  /** Data layer: steps agreed only by an answer the target's shape justified, by what justified it (named in the note). */
  accepted: z.record(z.string(), z.number()).optional(),
  /** Data layer: steps agreed only by a secure reading of a rule the spec leaves open, by the reading's name (named in the note). */
  readings: z.record(z.string(), z.number()).optional(),
  /** Data layer: more distinct findings than the first MAX_FINDINGS listed (the note says so too); `atLeast`: a lower bound (a merge of shards that found more than they listed). */
  moreFindings: z.object({ distinct: z.number().int(), atLeast: z.literal(true).optional() }).optional(),
  note: z.string().nullable(),
  failures: z.array(FailureSummarySchema),
});

/** Where one property's time went: its wall time, and (data layer) the parts of engine/runner/timings.ts. */
const PropertyTimingsSchema = z.object({
  totalMs: z.number().min(0),
  generationMs: z.number().min(0).optional(),
  modelMs: z.number().min(0).optional(),
  databaseMs: z.number().min(0).optional(),
  shrinkingMs: z.number().min(0).optional(),
});

/**
 * Where a run's time went (`fuzz --timings` prints it). `startupMs`: from the start until the
 * first case could run, of which `serverMs` (started or reached), `migrationsMs` (the SQL applied
 * to build the template: compatibility layer, migrations; 0 with a kept template), `templateMs`
 * (the rest of preparing it: creating, keeping or cloning a kept one), `workersMs` (the workers'
 * clones, connections and schema cache); the rest is the CLI's own (config, target, pack).
 * Then the saved failures' replay, the data properties (`propertiesMs`), the catalog checks and the
 * SSO half, and per property (parts summed over the workers' lanes, overlapping; see timings.ts).
 */
export const RunTimingsSchema = z.object({
  totalMs: z.number().min(0),
  startupMs: z.number().min(0),
  serverMs: z.number().min(0),
  migrationsMs: z.number().min(0),
  templateMs: z.number().min(0),
  workersMs: z.number().min(0),
  replayMs: z.number().min(0),
  propertiesMs: z.number().min(0),
  catalogMs: z.number().min(0),
  ssoMs: z.number().min(0),
  properties: z.record(z.string(), PropertyTimingsSchema),
});

const MatrixRowSchema = z.object({
  target: z.string(),
  command: z.string(),
  caller: z.string(),
  outcomes: z.record(z.string(), z.number()),
  steps: z.number().int(),
  properties: z.array(z.string()),
  disagreements: z.array(z.object({ property: z.string(), model: z.string(), database: z.string(), failure: z.string().nullable() })),
});

export const RunSummarySchema = z.object({
  format: z.literal(SUMMARY_FORMAT),
  formatVersion: z.literal(1),
  policyfuzzVersion: z.string(),
  seed: z.number().int(),
  profile: z.string().nullable(),
  /** The shards this summary covers (one for a run, several after merge-reports). */
  shards: z.array(z.object({ index: z.number().int().min(1), count: z.number().int().min(1) })),
  migrations: z.string().nullable(),
  migrationsDigest: z.string().nullable(),
  startedAt: z.string(),
  durationMs: z.number().min(0),
  timeBudgetMs: z.number().nullable(),
  /** The signal that interrupted the run (SIGINT, SIGTERM…): the report covers what completed before it. */
  interrupted: z.string().nullable().optional(),
  /** What the run could not set up as the target is (settings of the migrated database this role may not copy onto the run's databases): its verdicts stand, but read them with these. */
  warnings: z.array(z.string()).optional(),
  totals: z.object({
    properties: z.number().int(),
    passed: z.number().int(),
    failed: z.number().int(),
    /** Cut short below their minimum cases (partial) or not started (not reached): neither passed nor failed. */
    partial: z.number().int().optional(),
    notReached: z.number().int().optional(),
    /** Properties whose every case was dropped (status `no-verdict`). */
    noVerdict: z.number().int().optional(),
    /** The target lacks what the rule is about: not run, so not passed either. */
    notApplicable: z.number().int().optional(),
    cases: z.number().int(),
    counts: z.record(z.string(), z.number()),
  }),
  properties: z.array(PropertySummarySchema),
  /** Where the time went (a run's summary always has it; older summaries do not). */
  timings: RunTimingsSchema.optional(),
  /** Who can do what, judged by the model (derived from the properties' access counts). */
  matrix: z.array(MatrixRowSchema).optional(),
});

export type FailureSummary = z.infer<typeof FailureSummarySchema>;
export type RunTimings = z.infer<typeof RunTimingsSchema>;
export type PropertySummary = z.infer<typeof PropertySummarySchema>;
export type RunSummary = z.infer<typeof RunSummarySchema>;

/** How a status reads in the console, JUnit and HTML reports. */
export const STATUS_LABEL: Record<PropertySummary['status'], string> = {
  passed: 'PASS',
  failed: 'FAIL',
  'not-applicable': 'N/A',
  error: 'ERROR',
  partial: 'PARTIAL',
  'not-reached': 'NOT REACHED',
  'no-verdict': 'NO VERDICT',
};

/** A property "failed" for the exit code and the final line when it failed or could not run. */
export function isFailing(status: PropertySummary['status']): boolean {
  return status === 'failed' || status === 'error';
}

export function totalsOf(properties: PropertySummary[]): RunSummary['totals'] {
  const counts: Record<string, number> = {};
  for (const p of properties) for (const [k, v] of Object.entries(p.counts)) counts[k] = (counts[k] ?? 0) + v;
  const failed = properties.filter((p) => isFailing(p.status)).length;
  const partial = properties.filter((p) => p.status === 'partial').length;
  const notReached = properties.filter((p) => p.status === 'not-reached').length;
  const notApplicable = properties.filter((p) => p.status === 'not-applicable').length;
  const noVerdict = properties.filter((p) => p.status === 'no-verdict').length;
  return { properties: properties.length, passed: properties.length - failed - partial - notReached - notApplicable - noVerdict, failed, partial, notReached, notApplicable, ...(noVerdict ? { noVerdict } : {}), cases: properties.reduce((n, p) => n + p.cases, 0), counts };
}

export interface SummaryContext {
  policyfuzzVersion: string;
  seed: number;
  profile: string | null;
  shard: { index: number; count: number };
  migrations: string | null;
  migrationsDigest: string | null;
  startedAt: Date;
  timeBudgetMs: number | null;
  /** The signal that interrupted the run, if one did. */
  interrupted?: string | null;
  /** summary.json `warnings`. */
  warnings?: readonly string[];
  /** Where the time went: the run's phases (timingsOf); the properties' own are read from `results`. */
  phases?: RunPhases;
  results?: readonly PropertyResult[];
}

/** A run's phases as measured (milliseconds); absent ones were not run. */
export type RunPhases = Partial<Omit<RunTimings, 'totalMs' | 'properties'>>;

/** The run's `timings`: its phases, and each property's wall time and (data layer) its parts. */
export function timingsOf(totalMs: number, phases: RunPhases, results: readonly PropertyResult[]): RunTimings {
  const properties: RunTimings['properties'] = {};
  for (const r of results) properties[r.id] = { totalMs: r.durationMs, ...(r.timings ?? {}) };
  return {
    totalMs,
    startupMs: phases.startupMs ?? 0,
    serverMs: phases.serverMs ?? 0,
    migrationsMs: phases.migrationsMs ?? 0,
    templateMs: phases.templateMs ?? 0,
    workersMs: phases.workersMs ?? 0,
    replayMs: phases.replayMs ?? 0,
    propertiesMs: phases.propertiesMs ?? 0,
    catalogMs: phases.catalogMs ?? 0,
    ssoMs: phases.ssoMs ?? 0,
    properties,
  };
}

/** A data-layer result's runs taken unchecked and lanes given up (PropertySummary uncheckedRuns, lanesGaveUp), where any. */
function shortfallCounts(r: PropertyResult): { uncheckedRuns?: number; lanesGaveUp?: number } {
  if (!r.progress || r.area !== 'data') return {};
  const unchecked = Math.max(0, r.progress.reduce((n, l) => n + l.runs, 0) - r.cases);
  const gaveUp = r.progress.filter((l) => l.gaveUp).length;
  return { ...(unchecked ? { uncheckedRuns: unchecked } : {}), ...(gaveUp ? { lanesGaveUp: gaveUp } : {}) };
}

export function propertySummary(r: PropertyResult, failure?: Omit<FailureSummary, 'seed' | 'path' | 'message' | 'step' | 'case' | 'expected' | 'actual' | 'masked'>): PropertySummary {
  const f = r.failure;
  const plain = (v: unknown) => (v === undefined ? null : (JSON.parse(JSON.stringify(v) ?? 'null') as z.infer<typeof json>));
  return {
    id: r.id,
    title: r.title,
    area: r.area,
    status: r.status,
    cases: r.cases,
    planned: r.planned ?? null,
    counts: { ...r.counts },
    ...(r.access ? { access: { ...r.access } } : {}),
    ...(r.clauses ? { clauses: r.clauses.map((c) => ({ ...c })) } : {}),
    ...(r.oneSided ? { oneSided: r.oneSided } : {}),
    ...(r.branches ? { branches: r.branches.map((b) => ({ ...b })), untakenBranches: untakenBranches(r.branches) } : {}),
    durationMs: r.durationMs,
    ...(r.stoppedEarly ? { stoppedEarly: { ...r.stoppedEarly } } : {}),
    ...shortfallCounts(r),
    seed: r.seed,
    ...(r.dropped ? { dropped: { ...r.dropped } } : {}),
    ...(r.droppedReach ? { droppedReach: { ...r.droppedReach } } : {}),
    ...(r.cut ? { cut: { ...r.cut } } : {}),
    ...(r.accepted ? { accepted: { ...r.accepted } } : {}),
    ...(r.readings ? { readings: { ...r.readings } } : {}),
    ...(r.moreFindings ? { moreFindings: { ...r.moreFindings } } : {}),
    note: r.note ?? null,
    failures:
      r.status === 'failed' && f
        ? [
            {
              seed: f.seed,
              path: f.path,
              message: f.message,
              step: f.step ?? null,
              case: plain(f.counterexample),
              ...(f.unshrunk !== undefined ? { unshrunk: plain(f.unshrunk) } : {}),
              expected: plain(f.expected),
              actual: plain(f.actual),
              id: failure?.id ?? null,
              replay: failure?.replay ?? '',
              file: failure?.file ?? null,
              reproSql: failure?.reproSql ?? null,
              regressionFile: failure?.regressionFile ?? null,
              ...(f.masked?.length ? { masked: [...f.masked] } : {}),
              ...(f.sentAs ? { sentAs: f.sentAs } : {}),
            },
          ]
        : [],
  };
}

export function runSummary(properties: PropertySummary[], ctx: SummaryContext): RunSummary {
  const durationMs = Date.now() - ctx.startedAt.getTime();
  return {
    format: SUMMARY_FORMAT,
    formatVersion: 1,
    policyfuzzVersion: ctx.policyfuzzVersion,
    seed: ctx.seed,
    profile: ctx.profile,
    shards: [ctx.shard],
    migrations: ctx.migrations,
    migrationsDigest: ctx.migrationsDigest,
    startedAt: ctx.startedAt.toISOString(),
    durationMs,
    timeBudgetMs: ctx.timeBudgetMs,
    interrupted: ctx.interrupted ?? null,
    ...(ctx.warnings?.length ? { warnings: [...ctx.warnings] } : {}),
    totals: totalsOf(properties),
    properties,
    ...(ctx.phases ? { timings: timingsOf(durationMs, ctx.phases, ctx.results ?? []) } : {}),
    matrix: accessMatrix(properties),
  };
}

/** What summary.json holds while its run is under way (report/write.ts markReportsRunning): replaced by the summary at the end. */
export interface RunningMark {
  pid: number;
  startedAt: string;
  shard?: string;
}

function unfinishedRunText(file: string, running: RunningMark): string {
  // The pid is not checked: shards' reports are merged on other machines.
  const of = `${running.shard ? `shard ${running.shard}, ` : ''}started ${running.startedAt}, pid ${running.pid}`;
  return `${file} is from a run that never wrote its reports (${of}): it was killed, died or is still running. Run it again${running.shard ? ', or merge the other shards without it (--allow-partial)' : ''}`;
}

/** Reads a summary.json (or a report folder holding one); anything else is a UsageError. */
export function loadSummary(fileOrDir: string): RunSummary {
  const file = existsSync(fileOrDir) && statSync(fileOrDir).isDirectory() ? path.join(fileOrDir, 'summary.json') : fileOrDir;
  if (!existsSync(file)) throw new UsageError(`no policyfuzz summary at ${file}`);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`${file} is not a policyfuzz summary: invalid JSON (${(e as Error).message})`);
  }
  const running = (data as { running?: RunningMark } | null)?.running;
  if (running && typeof running === 'object') throw new UsageError(unfinishedRunText(file, running));
  if (!data || typeof data !== 'object' || (data as { format?: unknown }).format !== SUMMARY_FORMAT) {
    throw new UsageError(`${file} is not a policyfuzz summary (expected "format": "${SUMMARY_FORMAT}")`);
  }
  const parsed = RunSummarySchema.safeParse(data);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new UsageError(`${file} is a malformed policyfuzz summary: ${first.path.join('.') || '(top level)'}: ${first.message}`);
  }
  return parsed.data;
}

// No verdict (every case dropped) ranks under a pass: a shard whose cases all dropped beside one that
// checked cases is, as one machine, a property that checked some.
const STATUS_RANK: Record<PropertySummary['status'], number> = { failed: 5, error: 4, partial: 3, 'not-reached': 2, passed: 1, 'no-verdict': 0.5, 'not-applicable': 0 };

/**
 * Combines the summaries of the shards of one run: per property, cases, counts, clause tallies
 * and time add up, the worst status wins, failures are listed once each, and the coverage gate
 * is applied to the sums.
 */
export function mergeSummaries(summaries: RunSummary[]): RunSummary {
  if (summaries.length === 0) throw new UsageError('merge-reports needs at least one summary');
  const byId = new Map<string, PropertySummary>();
  // Only what a shard left to the merge is gated here: a property a run does not gate (a catalog
  // check, run on the first shard alone; a replayed case; one cut short below its minimum) is
  // not gated by the merge either, or the merge would fail what one machine passes.
  const leftToMerge = new Set<string>();
  /** Each property's summary in every shard: their notes are merged once the counts are. */
  const notes = new Map<string, PropertySummary[]>();
  for (const s of summaries) {
    for (const p of s.properties) {
      if (p.note?.split('; ').includes(COVERAGE_ON_MERGE_NOTE)) leftToMerge.add(p.id);
      const seen = byId.get(p.id);
      if (!seen) {
        notes.set(p.id, [p]);
        byId.set(p.id, { ...p, counts: { ...p.counts }, ...(p.access ? { access: { ...p.access } } : {}), ...(p.clauses ? { clauses: p.clauses.map((c) => ({ ...c })) } : {}), ...(p.branches ? { branches: p.branches.map((b) => ({ ...b })) } : {}), failures: [...p.failures] });
        continue;
      }
      for (const b of p.branches ?? []) {
        const known = seen.branches?.find((k) => k.id === b.id);
        if (known) known.taken += b.taken;
        else (seen.branches ??= []).push({ ...b });
      }
      for (const c of p.clauses ?? []) {
        const known = seen.clauses?.find((k) => k.id === c.id);
        if (known) {
          known.allowed += c.allowed;
          known.refused += c.refused;
        } else (seen.clauses ??= []).push({ ...c });
      }
      seen.cases += p.cases;
      if (seen.planned != null || p.planned != null) seen.planned = (seen.planned ?? 0) + (p.planned ?? 0);
      seen.durationMs += p.durationMs;
      for (const [k, v] of Object.entries(p.counts)) seen.counts[k] = (seen.counts[k] ?? 0) + v;
      if (p.dropped) seen.dropped = addCounts(seen.dropped, p.dropped);
      if (p.droppedReach) seen.droppedReach = addCounts(seen.droppedReach, p.droppedReach);
      if (p.cut) seen.cut = addCounts(seen.cut, p.cut);
      if (p.accepted) seen.accepted = addCounts(seen.accepted, p.accepted);
      if (p.readings) seen.readings = addCounts(seen.readings, p.readings);
      if (p.access) seen.access = addCounts(seen.access, p.access);
      if (STATUS_RANK[p.status] > STATUS_RANK[seen.status]) seen.status = p.status;
      notes.get(p.id)!.push(p);
      for (const f of p.failures) if (!seen.failures.some((g) => (f.id !== null && g.id === f.id) || (g.seed === f.seed && g.path === f.path))) seen.failures.push(f);
    }
  }
  // Coverage is judged here, on every shard's tallies together (a shard leaves it to the merge).
  for (const [id, p] of byId) {
    // Run whole on one shard (a catalog check, an SSO property, a data-layer property of a run split
    // by property): that shard's verdict and note are one machine's, as they are.
    if (notes.get(id)!.length === 1 && !leftToMerge.has(id)) continue;
    // Capped as one run caps them: the first MAX_FINDINGS in one run's order. A shard that found
    // more than it listed makes the count a lower bound.
    const distinctListed = oneFindingPerSignature(p.failures);
    const { note: shardNotes, distinct: fromShards, shortfall } = shardNotesOf(notes.get(id)!, p.status);
    const distinct = Math.max(distinctListed.length, fromShards);
    p.failures = distinctListed.slice(0, MAX_FINDINGS);
    // One failing shard's count is exact; another's findings beside it may be among its unlisted ones (budget.ts failedJoin alike).
    const atLeast = notes.get(id)!.some((s) => s.moreFindings?.atLeast) || (fromShards > 0 && notes.get(id)!.filter((s) => s.failures.length > 0).length > 1);
    const more = distinct > MAX_FINDINGS ? [moreFindingsNote(distinct, atLeast)] : [];
    const { moreFindings: _shards, ...unmoved } = p;
    // What the shards said of their own cases, said again of the run's (as one run words it: run-data-property.ts passNote; a failure's note has no shortfall;
    // a harness error's, only the error: one run's ERROR says no share of drops nor readings).
    const { prominent, general } = dropNotes(p.dropped ?? {}, p.cases);
    const counted = p.status === 'error' ? [] : [...prominent, ...(p.status === 'passed' && p.cases > 0 ? [shortfallText({ cases: p.cases, ...shortfall })] : []), general, acceptedNote(p.accepted, p.readings)];
    const { uncheckedRuns: _u, lanesGaveUp: _g, ...uncounted } = unmoved;
    // A failure's note as one run words it (run-data-property.ts, budget.ts failedJoin): what the shards said before the counted notes.
    const failed = p.status === 'failed';
    const withCounts = { ...uncounted, ...(shortfall.unchecked ? { uncheckedRuns: shortfall.unchecked } : {}), ...(shortfall.gaveUp ? { lanesGaveUp: shortfall.gaveUp } : {}), note: [...more, ...(failed ? shardNotes : []), ...counted].filter(Boolean).join('; ') || null, ...(distinct > MAX_FINDINGS ? { moreFindings: { distinct, ...(atLeast ? { atLeast: true as const } : {}) } } : {}), ...(p.branches ? { untakenBranches: untakenBranches(p.branches) } : {}) };
    // The coverage gate's note next, then what the shards said alike (once).
    const gated = leftToMerge.has(id) ? applyCoverageGate(withCounts) : withCounts;
    byId.set(id, { ...gated, note: [gated.note, ...(failed ? [] : shardNotes)].filter(Boolean).join('; ') || null });
  }
  const properties = [...byId.values()].sort((a, b) => (a.area === b.area ? a.id.localeCompare(b.id) : a.area === 'data' ? -1 : 1));
  const digests = [...new Set(summaries.map((s) => s.migrationsDigest).filter((d) => d !== null))];
  const started = summaries.map((s) => Date.parse(s.startedAt)).reduce((a, b) => Math.min(a, b));
  return {
    format: SUMMARY_FORMAT,
    formatVersion: 1,
    policyfuzzVersion: summaries[0].policyfuzzVersion,
    seed: summaries[0].seed,
    profile: summaries[0].profile,
    shards: summaries.flatMap((s) => s.shards).sort((a, b) => a.index - b.index),
    migrations: summaries[0].migrations,
    migrationsDigest: digests.length === 1 ? digests[0] : digests.length ? digests.join(',') : null,
    startedAt: new Date(started).toISOString(),
    durationMs: Math.max(...summaries.map((s) => s.durationMs)),
    timeBudgetMs: summaries[0].timeBudgetMs,
    interrupted: summaries.find((s) => s.interrupted)?.interrupted ?? null,
    ...(summaries.some((s) => s.warnings?.length) ? { warnings: [...new Set(summaries.flatMap((s) => s.warnings ?? []))] } : {}),
    totals: totalsOf(properties),
    properties,
    ...(summaries.every((s) => s.timings) ? { timings: mergedTimings(summaries.map((s) => s.timings!)) } : {}),
    matrix: accessMatrix(properties),
  };
}

/**
 * The shards' notes of one property without what merge-reports says again of the merged counts
 * (the more-findings count, the share of dropped cases, cases that took their runs unchecked, the
 * coverage left to the merge): the other parts once each, in the order the shards give them.
 */
function shardNotesOf(shards: readonly PropertySummary[], merged: PropertySummary['status']): { note: string[]; distinct: number; shortfall: { unchecked: number; gaveUp: number } } {
  const parts: string[] = [];
  let distinct = 0;
  const shortfall = { unchecked: 0, gaveUp: 0 };
  for (const p of shards) {
    distinct = Math.max(distinct, p.moreFindings?.distinct ?? 0);
    // A shard's harness error (its note is the error alone) beside another's findings: as one run says it after its findings.
    const note = p.status === 'error' && merged === 'failed' && p.note ? `${p.note} (after the findings above)` : undefined;
    const taken = takeShortfall(noteWithoutCounted(p, note));
    // Counted apart where the shard wrote them (a shard that checked nothing says no shortfall); an older summary's, read off its note.
    shortfall.unchecked += p.uncheckedRuns ?? taken.unchecked;
    shortfall.gaveUp += p.lanesGaveUp ?? taken.gaveUp;
    for (const part of taken.note.split('; ')) if (part.trim() && part !== COVERAGE_ON_MERGE_NOTE && !parts.includes(part)) parts.push(part);
  }
  return { note: parts, distinct, shortfall };
}

/** The shards' timings added up (machine time, not wall time), property by property. */
function mergedTimings(all: RunTimings[]): RunTimings {
  const sum = <T extends Record<string, unknown>>(a: T, b: T): T => {
    const out: Record<string, unknown> = { ...a };
    for (const [k, v] of Object.entries(b)) if (typeof v === 'number') out[k] = ((out[k] as number | undefined) ?? 0) + v;
    return out as T;
  };
  const properties: RunTimings['properties'] = {};
  for (const t of all) for (const [id, p] of Object.entries(t.properties)) properties[id] = properties[id] ? sum(properties[id], p) : { ...p };
  return { ...all.reduce((a, b) => sum(a, b)), properties };
}
