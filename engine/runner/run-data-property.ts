/**
 * Runs one data-layer property with fast-check on every worker at once: worker w checks its
 * share of the runs with seed + w, so the same seed and worker count give the same cases and
 * verdicts. A disagreement does not stop the search: every distinct one (by signature) is
 * shrunk, keeping its signature, and reported with the seed and path that replay it.
 */
import fc from 'fast-check';
import type { OutcomeClass } from '../model/outcome.ts';
import type { Oracle } from '../pack.ts';
import { connectionLost, FixtureError, harnessErrorText, PackModelError, UNNAMED_FIXTURE } from '../errors.ts';
import { caseSize, minimizeCase, plainCase } from '../findings/minimize.ts';
import { isSideError, signatureOf } from '../findings/signature.ts';
import { MAX_FINDINGS, moreFindingsNote } from '../findings/cap.ts';
import { CaseMismatch, caseBeforeCut, checkCase, mismatchMessage, prepareCase, type HistoryEntry, type PreparedCase, type StepMismatch } from './check-case.ts';
import { modelRunOf, type DataCase } from './data-case.ts';
import { withCallerFilledRun } from './caller-filled-run.ts';
import { withGrantedColumnReads } from './granted-column-reads.ts';
import type { DataProperty } from './data-property.ts';
import type { Environment, Worker } from './environment.ts';
import { NO_PROGRESS, type LaneProgress, type PropertyFailure, type PropertyResult } from './result.ts';
import { BranchTally, ClauseTally, DroppedReach } from './coverage.ts';
import { casePredictions } from './case-predictions.ts';
import { GuidedCases, laneArbitrary, ResumedCases, warmedFor } from './guided.ts';
import { pathWithPlace, placeOfPath, runOfPath, type LanePlace } from './replay-path.ts';
import { BusyClock, noTimings, roundTimings, timed, TimedArbitrary } from './timings.ts';
import { sendableCase, type FixturePlan } from '../target/fixtures.ts';
import { insertWithoutNullMappedNulls, nullMappedColumnsAsHeld } from '../target/null-mapped-columns.ts';
import { maskSeeded, stringsIn } from '../introspection/seeded-values.ts';
import { ALREADY_THERE, NO_PARENT, NotRealizable, remedyFor } from '../target/realizable.ts';
import { escapeRegExp } from '../regexp.ts';
import { cancelRunning } from '../db/client.ts';

export interface DataRunOptions {
  seed: number;
  runs: number;
  /** The pack's model with the run's settings. */
  oracle: Oracle;
  /** Replay exactly one case: the seed and path a failure printed (uses the first worker). */
  path?: string;
  /** Stop generating at this time (epoch ms); what ran is reported. */
  deadline?: number;
  /**
   * The runs are split into lanes, lane l checking its share with seed + l. By default there is
   * one lane per worker; a shard of a larger run takes lanes first…first+workers-1 of `total`, so
   * n shards of W workers check exactly the cases of one run with n·W workers.
   */
  lanes?: { first: number; total: number };
  onCase?: (propertyId: string) => void;
  /** Its findings are about to be shrunk (how many will be): a quiet stretch after the cases is shrinking, not a hang. */
  onShrink?: (propertyId: string, findings: number) => void;
  /** Stop searching at the first disagreement (a mutant is killed by one); by default the whole budget runs. */
  stopAtFirst?: boolean;
  /** True once the run is interrupted (a signal): stop generating, keep what completed. */
  stop?: () => boolean;
  /**
   * Each worker lane's progress in earlier tranches with the same seed (a result's `progress`, one
   * per worker, in order): those cases are not sent again, and the lane goes on where it stopped.
   */
  resume?: readonly LaneProgress[];
  /**
   * Go only up to the first `tranche` of the `runs` cases (a budget's breadth-first tranche,
   * engine/runner/budget.ts): each lane to its share of the tranche, never past its share of
   * `runs`, so the tranches of a property add up to exactly the cases of one run of `runs`.
   */
  tranche?: number;
  /**
   * The findings an earlier tranche of the property made (their signatures and lane seeds): a
   * sighting of one of these signatures on the same lane or a later one is not the one the
   * tranches keep (engine/findings/cap.ts oneFindingPerSignature), so it is not shrunk again.
   */
  known?: ReadonlyArray<{ signature?: string; seed: number }>;
  /**
   * false: report each finding as first seen, unshrunk (a mutant's kill needs the disagreement,
   * not its smallest case). Default true.
   */
  shrink?: boolean;
}

/** A disagreement at one step of a case (defined beside checkCase, which raises it too). */
export { CaseMismatch };

export function emptyCounts(): Record<OutcomeClass, number> {
  return { allowed: 0, filtered: 0, rejected: 0, errored: 0 };
}


/** A lane that drew this many cases in a row the target cannot hold stops drawing (no endless search). */
export const MAX_CONSECUTIVE_DROPS = 200;

/** Above this share of dropped cases the property's note names the constraint and what would fix it. */
export const DROP_HEALTH_SHARE = 0.4;

/**
 * Why a case the target cannot hold was dropped (the key `dropped` counts it under), or undefined
 * for any other error: not realizable from its plan, or (the backstop) fixtures the database refused.
 */
function dropReason(error: unknown): string | undefined {
  if (error instanceof NotRealizable) return error.reason;
  // Only a constraint says the target cannot hold the case; any other refusal (an unknown table, a
  // setting) is the harness's or the config's error, and reported as one.
  if (error instanceof FixtureError && error.constraint) return `${error.constraint} refused a fixture row${error.table === UNNAMED_FIXTURE ? '' : ` (${error.table})`}${error.code === '23505' ? `: ${ALREADY_THERE}` : error.code === '23503' ? `: ${NO_PARENT}` : ''}`;
  return undefined;
}

/**
 * Above this share of a property's cases dropped by one CHECK the model does not have, the note
 * says so first: a wrong values mapping (a model word the target's CHECK lacks) drops its cases
 * this way, and a pass with a fifth of the cases gone to one constraint would hide it.
 */
export const CHECK_DROP_SHARE = 0.2;

/** A drop reason of fixtures.ts unrealizableAnswer: a CHECK the model does not have refused a write it lets succeed. */
const CHECK_DROP = /^(.+) refused a value the model writes \(a CHECK the model does not have\)$/;

/**
 * What a property's dropped cases call for saying: `prominent`, each CHECK that dropped more than
 * CHECK_DROP_SHARE (said first in the note); `general`, a high share (or all) dropped, the main
 * reason and its remedy (unless a prominent one names it already).
 */
export function dropNotes(dropped: Record<string, number>, cases: number): { prominent: string[]; general?: string } {
  const total = Object.values(dropped).reduce((n, k) => n + k, 0);
  if (!total) return { prominent: [] };
  const share = total / (total + cases);
  const byCount = Object.entries(dropped).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const [reason] = byCount[0];
  if (cases === 0) return { prominent: [], general: `no case could run on this target: all ${total} cases drawn were dropped, mostly as ${reason}; ${remedyFor(reason)}` };
  const checks = byCount.filter(([r, n]) => CHECK_DROP.test(r) && n / (total + cases) > CHECK_DROP_SHARE);
  const prominent = checks.map(([r, n]) => `${Math.round((n / (total + cases)) * 100)}% of cases dropped by CHECK ${CHECK_DROP.exec(r)![1]} alone (a value the model writes refused): if the model has that rule, a values mapping is likely wrong; ${remedyFor(r)}`);
  const named = checks.some(([r]) => r === reason);
  return { prominent, ...(share > DROP_HEALTH_SHARE && !named ? { general: `${Math.round(share * 100)}% of cases dropped: ${reason}; ${remedyFor(reason)}` } : {}) };
}

const SHAPE_ACCEPTED = "accepted by the target's shape: ";
const READINGS_ACCEPTED = 'accepted as secure readings: ';

/**
 * The answers accepted only because the target's shape justified them (mapping.ts leniencyOf), and
 * those accepted only as secure readings (Outcome.reading), each with its count of steps.
 */
export function acceptedNote(accepted: Record<string, number> = {}, readings: Record<string, number> = {}): string | undefined {
  const named = (counts: Record<string, number>) => Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)).map(([why, n]) => `${why} (${n} step${n === 1 ? '' : 's'})`).join(', ');
  const parts = [...(Object.keys(accepted).length ? [SHAPE_ACCEPTED + named(accepted)] : []), ...(Object.keys(readings).length ? [READINGS_ACCEPTED + named(readings)] : [])];
  return parts.length ? parts.join('; ') : undefined;
}

/** Counts of two results (tranches, shards) added up, by key. */
export function addCounts(a: Record<string, number> | undefined, b: Record<string, number> | undefined): Record<string, number> {
  const sum = { ...a };
  for (const [k, v] of Object.entries(b ?? {})) sum[k] = (sum[k] ?? 0) + v;
  return sum;
}

/**
 * What a join of tranches or a merge of shards keeps of one result's note: its words for the
 * findings past the cap (the count travels as `moreFindings`; its words hold "; ") and its drop
 * notes taken out, both said again of the joined counts. `note`: the note as it is to be read.
 */
export function noteWithoutCounted(result: { note?: string | null; moreFindings?: { distinct: number; atLeast?: true }; dropped?: Record<string, number> }, note = result.note ?? ''): string {
  const said = result.moreFindings ? moreFindingsNote(result.moreFindings.distinct, result.moreFindings.atLeast) : undefined;
  const accepted = new RegExp(`(${[SHAPE_ACCEPTED, READINGS_ACCEPTED].join('|')})[^;]*`, 'g');
  return takeDropNotes(said ? note.split(said).join('') : note, Object.keys(result.dropped ?? {})).replace(accepted, '');
}

/**
 * A note with the drop notes dropNotes words for these reasons taken out, whatever their shares: a
 * shard's, whose shares merge-reports words again of the merged counts.
 */
export function takeDropNotes(note: string, reasons: readonly string[]): string {
  let rest = note;
  for (const reason of reasons) {
    const remedy = escapeRegExp(remedyFor(reason));
    const check = CHECK_DROP.exec(reason);
    const texts = [
      `\\d+% of cases dropped: ${escapeRegExp(reason)}; ${remedy}`,
      `no case could run on this target: all \\d+ cases drawn were dropped, mostly as ${escapeRegExp(reason)}; ${remedy}`,
      ...(check ? [`\\d+% of cases dropped by CHECK ${escapeRegExp(check[1])} alone \\(a value the model writes refused\\): if the model has that rule, a values mapping is likely wrong; ${remedy}`] : []),
    ];
    for (const text of texts) rest = rest.replace(new RegExp(text, 'g'), '');
  }
  return rest;
}

/** The note of a property whose share of dropped cases is high (or total), or one CHECK's share is (dropNotes). */
export function droppedNote(dropped: Record<string, number>, cases: number): string | undefined {
  const { prominent, general } = dropNotes(dropped, cases);
  return [...prominent, ...(general ? [general] : [])].join('; ') || undefined;
}

/** The note of a passing run: a CHECK that dropped many cases first, then cut short (by the budget or an interrupt) after how many cases, fewer cases than it drew, and a high share of dropped cases. */
export function passNote(stopped: PropertyResult['stopped'], cases: number, dropped: Record<string, number>, progress?: readonly LaneProgress[]): string | undefined {
  const { prominent, general } = dropNotes(dropped, cases);
  const parts = [...prominent, ...(stopped ? [`${stopped === 'interrupted' ? 'interrupted' : 'time budget reached'} after ${cases} cases`] : [shortfallNote(cases, progress)]), general].filter((n): n is string => Boolean(n));
  return parts.join('; ') || undefined;
}

/**
 * Why a run that was not cut short checked fewer cases than it took runs: a case whose every
 * request the target cannot send, or one found unholdable only once written, takes its run
 * unchecked; a lane that met MAX_CONSECUTIVE_DROPS unholdable cases in a row stops drawing.
 */
function shortfallNote(cases: number, progress: readonly LaneProgress[] | undefined): string | undefined {
  // None checked: droppedNote says so.
  if (!progress || cases === 0) return undefined;
  const unchecked = progress.reduce((n, l) => n + l.runs, 0) - cases;
  const gaveUp = progress.filter((l) => l.gaveUp).length;
  return shortfallText({ cases, unchecked: Math.max(0, unchecked), gaveUp });
}

/** The shortfall note's text from its numbers (merge-reports words the shards' sums alike: takeShortfall). */
export function shortfallText({ cases, unchecked, gaveUp }: { cases: number; unchecked: number; gaveUp: number }): string | undefined {
  if (unchecked <= 0 && !gaveUp) return undefined;
  // `dropped` mixes these with cases drawn again in their place: no one reason is theirs to name.
  return [
    ...(unchecked > 0 ? [`${cases} of ${cases + unchecked} cases checked: ${unchecked} could not run on this target and took their runs (every request unsendable, or refused once written; dropped cases by reason in summary.json)`] : []),
    ...(gaveUp ? [`${gaveUp === 1 ? 'a lane' : `${gaveUp} lanes`} stopped drawing after ${MAX_CONSECUTIVE_DROPS} cases in a row this target cannot hold, ${cases} cases checked`] : []),
  ].join('; ');
}

const UNCHECKED_TEXT = /(\d+) of \d+ cases checked: (\d+) could not run on this target and took their runs \(every request unsendable, or refused once written; dropped cases by reason in summary\.json\)/g;
const GAVE_UP_TEXT = new RegExp(`(a lane|(\\d+) lanes) stopped drawing after ${MAX_CONSECUTIVE_DROPS} cases in a row this target cannot hold, \\d+ cases checked`, 'g');

/** A note with its shortfall text (shortfallText) taken out, and the numbers it gave: what a shard's note says of its own cases. */
export function takeShortfall(note: string): { note: string; unchecked: number; gaveUp: number } {
  let unchecked = 0;
  let gaveUp = 0;
  const rest = note
    .replace(UNCHECKED_TEXT, (_, _cases: string, n: string) => {
      unchecked += Number(n);
      return '';
    })
    .replace(GAVE_UP_TEXT, (_, _lanes: string, n?: string) => {
      gaveUp += n ? Number(n) : 1;
      return '';
    });
  return { note: rest, unchecked, gaveUp };
}

/** A disagreement seen while searching: where fast-check generated it (lane, run index) and its signature. */
interface Sighting {
  lane: number;
  index: number;
  signature: string;
  /** A side error (signature.ts): reported after the findings of other kinds. */
  side: boolean;
  testCase: DataCase;
  mismatch: StepMismatch;
  history: HistoryEntry[];
}

/**
 * Each lane's guided arbitrary (its state is what it drew), by the lane's progress it ran to: a
 * later tranche resuming from that progress goes on with it instead of drawing the earlier cases
 * again. Not found (a progress from elsewhere): they are drawn again, to the same state.
 */
const laneArbitraries = new WeakMap<LaneProgress, GuidedCases>();

/**
 * Each worker's turn: a lane (or a shrink) holds its worker's connection until it ends. A run may
 * start while the run before still has a lane going (engine/runner/budget.ts `overlap`): its lanes
 * then take their workers as that run's free them, never two lanes on one connection.
 */
const workerTurns = new WeakMap<Worker, Promise<void>>();
async function onWorker<T>(worker: Worker, work: () => Promise<T>): Promise<T> {
  const before = workerTurns.get(worker) ?? Promise.resolve();
  let end!: () => void;
  const mine = new Promise<void>((resolve) => (end = resolve));
  workerTurns.set(worker, before.then(() => mine));
  await before;
  try {
    return await work();
  } finally {
    end();
  }
}

export async function runDataProperty(env: Environment, property: DataProperty, options: DataRunOptions): Promise<PropertyResult> {
  const started = Date.now();
  /** When its first lane got its worker: its time counts from there, not from a wait behind another run's lanes. */
  let firstTurnAt: number | undefined;
  const counts = emptyCounts();
  /** The access matrix of the agreed steps: cell key → steps (engine/model/access.ts). */
  const access: Record<string, number> = {};
  /** How often each labelled clause of the rule was reached, on each side. */
  const clauseTally = new ClauseTally(property.clauses ?? []);
  /** How many cases took each branch of the model this property owns (engine/model/branches.ts). */
  const branchTally = new BranchTally(options.oracle.model.branches, property.id);
  /** What the cases (and requests) this target could not hold would have reached: the coverage gate excuses only that. */
  const droppedReach = new DroppedReach(property.clauses ?? []);
  const arbitrary = property.cases(options.oracle.settings, options.oracle);
  /** Where the time went (timings.ts). */
  const timings = noTimings();
  /** Each lane draws from its own arbitrary: a guided one (guided.ts) follows the branches its own cases took. */
  const arbitraryOf = (place: LanePlace) => laneArbitrary(property, options.oracle, arbitrary, place);
  /** A replayed path: the lane it names (its sweep order) and fast-check's own path. */
  const replay = options.path === undefined ? undefined : placeOfPath(options.path);
  if (options.path !== undefined && !replay) throw new Error(`--path ${options.path}: not a replay path (a failure prints one, e.g. 12:0:3 or 1/4/12:0:3)`);
  let checked = 0;
  /** When the first disagreement was seen (before shrinking): a mutant's time to kill. */
  let firstFailureAt: number | undefined;
  const workers = options.path ? env.workers.slice(0, 1) : env.workers;
  const lanes = options.path ? { first: 0, total: 1 } : (options.lanes ?? { first: 0, total: workers.length });
  const laneShare = (runs: number, lane: number) => {
    const share = Math.ceil(runs / lanes.total);
    return Math.max(0, Math.min(share, runs - share * lane));
  };
  /** A lane's place among the run's lanes (a replay's: the one its path names). */
  const placeOf = (lane: number): LanePlace => replay?.place ?? { lane, lanes: lanes.total };
  /** A finding's replay path: fast-check's, with the lane's place where it decides the draws. */
  const replayPath = (lane: number, path: string) => pathWithPlace(path, placeOf(lane), property);
  const runsOfLane = (lane: number) => (options.path ? 1 : laneShare(options.runs, lane));
  /** Where this call stops the lane: its share of the runs, or of the tranche (never past the former). */
  const targetOfLane = (lane: number) => (options.path || options.tranche === undefined ? runsOfLane(lane) : Math.min(runsOfLane(lane), laneShare(options.tranche, lane)));
  const progressBefore = (w: number): LaneProgress => (options.path ? NO_PROGRESS : (options.resume?.[w] ?? NO_PROGRESS));
  /** Each lane's progress (earlier tranches' included): where a later tranche resumes it. */
  const progress: LaneProgress[] = workers.map((_, w) => ({ ...progressBefore(w), drops: [...progressBefore(w).drops] }));
  // A lane this tranche does not run keeps its arbitrary for the next one all the same.
  for (const [w, p] of progress.entries()) {
    const kept = laneArbitraries.get(progressBefore(w));
    if (kept) laneArbitraries.set(p, kept);
  }
  /**
   * A lane's arbitrary, in the state its earlier tranches left it (the kept one, or a new one that
   * draws their cases again), their runs not drawn again (ResumedCases). Kept for the next tranche.
   */
  const resumedLane = (w: number): fc.Arbitrary<DataCase> => {
    const before = progressBefore(w);
    const arbitrary = laneArbitraries.get(before)?.rewound(before.draws) ?? timed(timings, 'generationMs', () => warmedFor(arbitraryOf(placeOf(lanes.first + w)), options.seed + lanes.first + w, before.draws));
    if (arbitrary instanceof GuidedCases) laneArbitraries.set(progress[w], arbitrary);
    const timedCases = new TimedArbitrary(arbitrary, timings);
    return before.draws > 0 ? new ResumedCases(timedCases, before.draws) : timedCases;
  };
  const pastDeadline = () => options.deadline !== undefined && Date.now() >= options.deadline;
  const stopping = () => options.stop?.() === true || pastDeadline();
  const sightings: Sighting[] = [];
  // A mutant is killed by its first disagreement, but a side error (signature.ts) is seldom the
  // bug's own: the search goes on until one of another kind is seen, or the budget ends.
  const done = () => options.stopAtFirst === true && sightings.some((s) => !s.side);
  /** Steps the model agreed with only by an answer the target's shape justified, by what justified it (named in the note). */
  const accepted: Record<string, number> = {};
  /** Steps the model agreed with only by a secure reading (Outcome.reading), by its name (named in the note). */
  const readings: Record<string, number> = {};
  /** Cases (or requests) the target cannot hold, by reason: not run, not counted in `checked`. */
  const dropped: Record<string, number> = {};
  const drop = (reason: string) => (dropped[reason] = (dropped[reason] ?? 0) + 1);
  /** Cases cut before a step a role sweep appended that the target cannot hold, by reason: checked (in `checked`), not dropped. */
  const cut: Record<string, number> = {};

  // Search: every case of the budget runs; a disagreement is noted (not thrown), so the first
  // one never hides the others. Replaying one path (--path) throws it, as fast-check shrank it.
  // While a case is in the database, fast-check draws the lane's next case and the model prepares
  // it (prepareCase: fixtures, requests, predictions). A case whose requests are all known is
  // written behind the one before it without waiting for its answers (the connection is
  // pipelined), so the database always has the next case; at most two cases of a lane are in
  // the database at once, and each is judged when its answers come back. Cases still run one at
  // a time per connection, in the order drawn.
  const lanesRun = await Promise.all(
    workers.map((worker, w) => onWorker(worker, async () => {
      firstTurnAt ??= Date.now();
      const lane = lanes.first + w;
      const before = progressBefore(w);
      // A lane that gave up (MAX_CONSECUTIVE_DROPS), or met a harness error, stays so, as in one run.
      if (before.gaveUp || before.harnessError !== undefined || targetOfLane(lane) <= before.runs) return undefined;
      const droppedBefore = new Set(before.drops);
      const mine = progress[w];
      let index = 0;
      /**
       * `written`: the lane's last case is written (a planned case may go behind it). `judged` and
       * `judgedBefore`: the last case, and the one before it, are answered and judged. `settled`:
       * every case of the lane is judged. And the lane's first harness error.
       */
      let written: Promise<void> = Promise.resolve();
      let judged: Promise<void> = Promise.resolve();
      let judgedBefore: Promise<void> = Promise.resolve();
      let settled: Promise<void> = Promise.resolve();
      /** The lane's harness error of its earliest case (`at`): cases written behind it are not counted. */
      let harnessError: { error: unknown; at: number } | undefined;
      /** Whether a case after the one at `runIndex` met a harness error: it is past the lane's end, uncounted. */
      const pastLaneError = (runIndex: number) => harnessError !== undefined && harnessError.at < runIndex;
      let droppedInARow = 0;
      /** The lane's time with a case in the database. */
      const busy = new BusyClock(timings);
      /**
       * `whole`: the case as sent before any cut (what a cut leaves unjudged is counted as reach not checked).
       * `judgedBefore`: the lane's case before it, judged. A case is counted once that one is: one
       * written behind a case whose answer is a harness error (pipelined) may be answered before
       * that error comes back or not, as timing has it; past the lane's end, it is never counted.
       * `untake`: gives back the run it took.
       */
      const runCase = async (prepared: PreparedCase, whole: DataCase, runIndex: number, onReleased?: () => void, judgedBefore: Promise<void> = Promise.resolve(), untake = () => {}) => {
        let testCase = prepared.testCase;
        let verdict;
        let thrown: { error: unknown } | undefined;
        busy.enter();
        try {
          verdict = await checkCase(worker.tx, testCase, options.oracle, undefined, prepared, onReleased);
        } catch (error) {
          thrown = { error };
        } finally {
          busy.leave();
        }
        await judgedBefore;
        if (pastLaneError(runIndex)) return untake();
        if (thrown) {
          // Found out only once written (a model run's step, fixtures the database refused): dropped all the same.
          const reason = options.path ? undefined : dropReason(thrown.error);
          if (reason === undefined) throw thrown.error;
          drop(reason);
          timed(timings, 'modelMs', () => droppedReach.add(testCase, options.oracle));
          return;
        }
        verdict = verdict!;
        if (verdict.cut) {
          cut[verdict.cut.reason] = (cut[verdict.cut.reason] ?? 0) + 1;
          // What the steps from the cut on would have reached, as a dropped case's: a coverage gap only they filled is not checked on this target, not a generator's miss.
          const unjudged = new Set(whole.steps.slice(verdict.cut.step));
          timed(timings, 'modelMs', () => droppedReach.add(whole, options.oracle, unjudged));
          // Cut once answered: what was judged is the case before its cut (prepared cuts are so already).
          testCase = caseBeforeCut(testCase, verdict.cut);
        }
        // Coverage, read off the case's history.
        for (const h of verdict.history) {
          counts[h.outcomeClass]++;
          access[h.cell] = (access[h.cell] ?? 0) + 1;
          if (h.leniency) accepted[h.leniency] = (accepted[h.leniency] ?? 0) + 1;
          if (h.reading) readings[h.reading] = (readings[h.reading] ?? 0) + 1;
        }
        const predictions = casePredictions(testCase, options.oracle, verdict.history.map((h) => h.prediction));
        timed(timings, 'modelMs', () => {
          clauseTally.add(testCase, options.oracle, predictions);
          branchTally.add(predictions);
        });
        checked++;
        options.onCase?.(property.id);
        if (!verdict.mismatch) return;
        firstFailureAt ??= Date.now();
        if (options.path) throw new CaseMismatch(verdict.mismatch, verdict.history);
        // The representative of a signature is its earliest sighting: later ones of the same lane are not kept.
        const signature = signatureOf(property.id, verdict.mismatch);
        if (!sightings.some((s) => s.lane === lane && s.signature === signature)) sightings.push({ lane, index: runIndex, signature, side: isSideError(verdict.mismatch), testCase: plainCase(testCase), mismatch: verdict.mismatch, history: verdict.history });
      };
      // Warmed before it is timed: warmedFor recognises a guided arbitrary only unwrapped.
      const laneCases = replay
        ? new TimedArbitrary(warmedFor(arbitraryOf(replay.place), options.seed + lane, runOfPath(replay.path)), timings)
        : resumedLane(w);
      const predicate = fc.asyncProperty(laneCases, async (testCase: DataCase) => {
        const runIndex = index++;
        // Drawn by an earlier tranche with the same seed: not sent again. Its decision is replayed
        // (a case it dropped before writing took no run; the others each took one), not made again.
        if (runIndex < before.draws) {
          if (droppedBefore.has(runIndex)) {
            droppedInARow++;
            throw new fc.PreconditionFailure();
          }
          droppedInARow = 0;
          return;
        }
        if (harnessError) throw harnessError.error;
        // Out of time or interrupted: end fast-check's run here (an interruption, not a failure);
        // the case in flight, if any, completes.
        if (stopping()) throw new fc.PreconditionFailure(true);
        // Every run that returns took one of the lane's runs (a dropped case's precondition failure does not).
        let taken = false;
        const took = () => {
          taken = true;
          mine.runs++;
          mine.draws = runIndex + 1;
        };
        /** A case past the lane's harness error gives its run back (pastLaneError). */
        const untake = () => {
          if (taken) mine.runs--;
          taken = false;
        };
        if (done()) return void took();
        // Requests naming a column the target does not have are left out, counted (a model run's
        // steps come one at a time and are not).
        const sendable = await asSent(worker.tx.fixturePlan, options.oracle, testCase);
        for (const [reason, n] of Object.entries(sendable.dropped)) dropped[reason] = (dropped[reason] ?? 0) + n;
        // What the left-out steps would have reached: a model run's case is dropped whole (every step), another's by its steps.
        if (!sendable.testCase) timed(timings, 'modelMs', () => droppedReach.add(testCase, options.oracle));
        else if (sendable.testCase !== testCase && !modelRunOf(testCase)) {
          const kept = new Set(sendable.testCase.steps);
          const leftOut = testCase.steps.filter((s) => !kept.has(s));
          // A case taken with another world (a dangling reference made null) and every step: nothing left out to count.
          if (leftOut.length) timed(timings, 'modelMs', () => droppedReach.add(testCase, options.oracle, new Set(leftOut)));
        }
        if (!sendable.testCase) return void took();
        const prepared = timed(timings, 'modelMs', () => prepareCase(worker.tx.fixturePlan, sendable.testCase!, options.oracle));
        if (options.path) return runCase(prepared, sendable.testCase, runIndex);
        // Not realizable on this target, known before anything is written: fast-check draws another
        // in its place (a skipped run does not count toward numRuns), within a bound.
        if (prepared.thrown instanceof NotRealizable) {
          // Counted once the lane's cases before it are judged: never past the lane's harness error (pastLaneError).
          const reason = prepared.thrown.reason;
          const counted = judged.then(() => {
            if (pastLaneError(runIndex)) return;
            drop(reason);
            timed(timings, 'modelMs', () => droppedReach.add(prepared.testCase, options.oracle));
          });
          settled = settled.then(() => counted);
          mine.drops.push(runIndex);
          mine.draws = runIndex + 1;
          if (++droppedInARow >= MAX_CONSECUTIVE_DROPS) {
            // Drops are drawn while an earlier case is still in the database: the lane gives up only
            // once those are judged and met no harness error (one ends the lane there, not this).
            await judged;
            const failedBefore = harnessError as { error: unknown } | undefined;
            if (failedBefore) throw failedBefore.error;
            mine.gaveUp = true;
            throw new fc.PreconditionFailure(true);
          }
          throw new fc.PreconditionFailure();
        }
        droppedInARow = 0;
        // A planned case goes once the last one is written and the one before it judged (two in
        // the database at most); one that sends step by step waits until the connection is idle.
        const previous = written;
        const gate = prepared.planned ? Promise.all([previous, judgedBefore]) : Promise.all([previous, judged]);
        let release!: () => void;
        written = new Promise<void>((resolve) => (release = resolve));
        const priorJudged = judged;
        const finished = gate
          .then(() => (pastLaneError(runIndex) ? untake() : harnessError || done() ? undefined : runCase(prepared, sendable.testCase!, runIndex, release, priorJudged, untake)))
          .catch((error: unknown) => {
            if (!harnessError || runIndex < harnessError.at) harnessError = { error, at: runIndex };
          })
          .finally(() => release());
        judgedBefore = judged;
        judged = finished;
        settled = settled.then(() => finished);
        await previous;
        const failedBefore = harnessError as { error: unknown } | undefined;
        if (failedBefore) throw failedBefore.error;
        took();
      });
      const detail = await fc.check(predicate, {
        seed: options.seed + lane,
        numRuns: targetOfLane(lane),
        // A replayed path is the case it names: shrinking on from there could leave its signature.
        // A search throws only a harness error: reported as it came, not shrunk.
        endOnFailure: true,
        // Dropped cases are skipped runs: the lane gives up past MAX_CONSECUTIVE_DROPS in a row, never here.
        maxSkipsPerRun: Number.MAX_SAFE_INTEGER,
        ...(replay ? { path: replay.path } : {}),
      });
      await settled;
      // The lane ends at its harness error: what was drawn behind it is not its.
      if (harnessError) {
        mine.draws = Math.min(mine.draws, harnessError.at + 1);
        mine.drops = mine.drops.filter((d) => d < mine.draws);
      }
      return { w, detail, harnessError, gaveUp: mine.gaveUp === true };
    })),
  ).then((list) => list.filter((d) => d !== undefined));
  const details = lanesRun.map((l) => l.detail);

  // The interrupt's grace ran out under a case in flight (a statement that would not end) and the
  // server was stopped: that case is unfinished, not a harness error, and nothing is blamed.
  // Read once: a signal landing between two reads would call one stop both the budget's and the interrupt's.
  const interrupted = options.stop?.() === true;
  const cutUnderCase = interrupted && lanesRun.some((l) => l.harnessError && connectionLost(l.harnessError.error));
  const stopped = cutUnderCase || lanesRun.some((l) => l.detail.interrupted && !l.gaveUp) ? (interrupted ? ('interrupted' as const) : ('time budget' as const)) : undefined;
  const planned = options.path ? 1 : workers.reduce((n, _, w) => n + runsOfLane(lanes.first + w), 0);
  const base = {
    id: property.id,
    title: property.title,
    area: 'data' as const,
    cases: checked,
    counts,
    access,
    ...(property.clauses?.length ? { clauses: clauseTally.result() } : {}),
    ...(property.oneSided ? { oneSided: property.oneSided } : {}),
    ...(branchTally.known ? { branches: branchTally.result() } : {}),
    seed: options.seed,
    planned,
    progress,
    ...(stopped ? { stopped } : {}),
    ...(Object.keys(dropped).length ? { dropped } : {}),
    ...(Object.keys(dropped).length || Object.keys(cut).length ? { droppedReach: droppedReach.result() } : {}),
    ...(Object.keys(cut).length ? { cut } : {}),
    ...(Object.keys(accepted).length ? { accepted } : {}),
    ...(Object.keys(readings).length ? { readings } : {}),
  };
  const health = [droppedNote(dropped, checked), acceptedNote(accepted, readings)].filter(Boolean).join('; ') || undefined;
  const withHealth = (note?: string) => (health ? { note: note ? `${note}; ${health}` : health } : note ? { note } : {});
  const timing = () => ({ durationMs: Date.now() - (firstTurnAt ?? started), timings: roundTimings(timings), ...(firstFailureAt !== undefined ? { firstFailureMs: firstFailureAt - (firstTurnAt ?? started) } : {}) });
  // Only a harness error (or a replayed path's disagreement) fails fast-check's run now. fast-check
  // also reports "failed" for a lane interrupted before its first case: that is not reached, never a failure.
  // A lane's harness error in its last case reaches no later predicate: it is taken from the lane.
  const failed = details.find((d) => d.failed && d.counterexample !== null && !(cutUnderCase && connectionLost(d.errorInstance)));
  if (failed?.errorInstance instanceof CaseMismatch) {
    // A disagreement is thrown only when replaying a path: fast-check's own failure.
    const testCase = failed.counterexample?.[0] as DataCase;
    const finding = findingOf(property.id, failed.seed, replayPath(0, failed.counterexamplePath ?? replay?.path ?? ''), plainCase(testCase), failed.errorInstance.mismatch, undefined, failed.errorInstance.history, workers[0].tx.fixturePlan);
    return { ...base, ...timing(), status: 'failed', failure: finding, findings: [finding] };
  }
  // A harness error ends the lane it met, in this tranche and the later ones (its progress keeps
  // the note); the other lanes go on, as the shards holding them do. The findings made before it
  // are still shrunk and reported.
  for (const l of lanesRun) {
    const error = l.harnessError?.error ?? (l.detail.failed && l.detail.counterexample !== null ? l.detail.errorInstance : undefined);
    if (error !== undefined && !(cutUnderCase && connectionLost(error))) progress[l.w].harnessError = harnessNoteOf(error);
  }
  /** The property's harness error: its first lane's (this tranche's or an earlier one's), as the same seed meets it on one machine or on the shard holding that lane. */
  const harnessNote = progress.find((l) => l.harnessError !== undefined)?.harnessError;
  if (harnessNote !== undefined && !sightings.length) return { ...base, ...timing(), status: 'error', note: harnessNote };
  if (!sightings.length) {
    // A property that could check nothing at all, every case dropped, has no verdict; a case the
    // target cannot hold is dropped and counted, never an error. (A later tranche of a property whose
    // earlier ones ran cases has run something.) Cut short by the budget or an interrupt after a few
    // drops, with a lane still drawing, it is not reached (budget.ts), and a later tranche goes on.
    const ranBefore = workers.some((_, w) => progressBefore(w).runs > 0);
    const cutWhileDrawing = stopped !== undefined && lanesRun.some((l) => !l.gaveUp);
    if (checked === 0 && health && !ranBefore && !cutWhileDrawing) return { ...base, ...timing(), status: 'no-verdict', note: health };
    const note = [passNote(stopped, checked, dropped, progress), acceptedNote(accepted, readings)].filter(Boolean).join('; ');
    return { ...base, ...timing(), status: 'passed', ...(note ? { note } : {}) };
  }

  // One representative per signature: the earliest (by lane, then run index), so the same seed gives
  // the same set; side errors after the others, so the first finding is the bug's own when one was seen.
  sightings.sort((a, b) => Number(a.side) - Number(b.side) || a.lane - b.lane || a.index - b.index);
  const representatives = sightings.filter((s, i) => sightings.findIndex((t) => t.signature === s.signature) === i);
  const chosen = representatives.slice(0, MAX_FINDINGS);
  // Shrink them, spread over the workers.
  const findings: PropertyFailure[] = new Array(chosen.length);
  const shrinking = performance.now();
  const shrinkLimit = shrinkTimeLimit(options.deadline, started);
  /** A harness error while shrinking (the server gone): the findings it met are reported as first found. */
  let shrinkError: { error: unknown } | undefined;
  // Time is counted as shrinking only where a finding was shrunk: reporting findings as first seen is not.
  let shrank = false;
  /** Shrunk here: not switched off, and not shrunk by an earlier tranche (one test, for the count said and the loop). */
  const toBeShrunk = (s: Sighting) => options.shrink !== false && !shrunkBefore(options, s.signature, options.seed + s.lane);
  const toShrink = chosen.filter(toBeShrunk).length;
  if (toShrink > 0) options.onShrink?.(property.id, toShrink);
  // Interrupted, a shrink stops before its next candidate; the one in flight is of no use then, and
  // a statement of it that hangs (a lock, a trigger's pg_sleep: the connecting role and service_role
  // have only the workers' 60 s bound) would outlast the interrupt's grace, which stops everything
  // and loses the report: cancelled at once, the findings are reported as shrunk so far.
  const stop = options.stop;
  const cancelOnInterrupt =
    toShrink > 0 && stop
      ? setInterval(() => {
          if (!stop()) return;
          clearInterval(cancelOnInterrupt);
          for (const worker of workers) void cancelRunning(worker.client);
        }, INTERRUPT_POLL_MS)
      : undefined;
  await Promise.all(
    workers.map((worker, w) => onWorker(worker, async () => {
      for (let i = w; i < chosen.length; i += workers.length) {
        const s = chosen[i];
        const unshrunk = () => findingOf(property.id, options.seed + s.lane, replayPath(s.lane, String(s.index)), s.testCase, s.mismatch, undefined, s.history, worker.tx.fixturePlan);
        if (!toBeShrunk(s) || shrinkError) {
          findings[i] = unshrunk();
          continue;
        }
        try {
          shrank = true;
          findings[i] = await shrinkFinding(worker, property, warmedFor(arbitraryOf(placeOf(s.lane)), options.seed + s.lane, s.index), s, options, shrinkLimit, (path) => replayPath(s.lane, path));
        } catch (error) {
          shrinkError ??= { error };
          findings[i] = unshrunk();
        }
      }
    })),
  );
  clearInterval(cancelOnInterrupt);
  const shrinkNote = shrinkError && !harnessNote ? `harness error while shrinking: ${harnessErrorText(shrinkError.error)}; the findings not yet shrunk are reported as first found` : undefined;
  if (shrank) timings.shrinkingMs += performance.now() - shrinking;
  // An interrupt before or during the shrinks cut them: what they had found so far is reported.
  const shrinkCut = options.shrink !== false && options.stop?.() === true;
  const shrinkTimedOut = !shrinkCut && shrinkLimit.reached;
  const more = representatives.length - chosen.length;
  return {
    ...base,
    ...timing(),
    status: 'failed',
    failure: findings[0],
    findings,
    ...(more > 0 ? { moreFindings: { distinct: representatives.length } } : {}),
    ...withHealth([...(more > 0 ? [moreFindingsNote(representatives.length)] : []), ...(shrinkCut ? ['shrinking cut short by the interrupt: the smallest counterexample found so far is reported'] : []), ...(shrinkTimedOut ? [SHRINK_TIMED_OUT_NOTE] : []), ...(harnessNote ? [`${harnessNote} (after the findings above)`] : []), ...(shrinkNote ? [shrinkNote] : [])].join('; ') || undefined),
  };
}

/** What a run says of a harness error: the pack's own model throwing is its author's to fix, not policyfuzz's (said so, with where). */
function harnessNoteOf(error: unknown): string {
  if (error instanceof PackModelError) return error.message;
  const row = error instanceof FixtureError && error.row !== null ? ` (row ${JSON.stringify(error.row)})` : '';
  return `harness error: ${harnessErrorText(error)}${row}`;
}

function findingOf(propertyId: string, seed: number, path: string, testCase: DataCase, mismatch: StepMismatch, before: DataCase | undefined, history: HistoryEntry[] | undefined, plan: FixturePlan): PropertyFailure {
  const seeded = plan.seededValues;
  const sentAs = mismatch.sentAs;
  return {
    seed,
    path,
    counterexample: testCase,
    expected: mismatch.expected,
    actual: { outcome: mismatch.actual, response: mismatch.response },
    message: mismatchMessage(mismatch),
    step: mismatch.step,
    ...(sentAs ? { sentAs } : {}),
    ...(mismatch.masked?.length ? { masked: mismatch.masked } : {}),
    // The model's own predictions (its names), masked like the mismatch: seeded values are never shown.
    ...(history ? { predictions: history.map((h) => maskSeeded(h.prediction.outcome, seeded, stringsIn(testCase))) } : {}),
    signature: signatureOf(propertyId, mismatch),
    ...(isSideError(mismatch) ? { side: true as const } : {}),
    sizes: { before: caseSize(before ?? testCase), after: caseSize(testCase) },
    // The case as first found, next to the shrunk one (which keeps its signature), when shrinking changed it.
    ...(before && JSON.stringify(before) !== JSON.stringify(testCase) ? { unshrunk: before } : {}),
  };
}

/**
 * Shrinks one finding: fast-check replays its run (seed of its lane, path = its run index) and
 * shrinks with a predicate that fails only on the same signature; then the plain case is
 * minimized further (steps and fixture rows it does not need). The replay line (seed, path)
 * gives fast-check's shrunk case; the saved failure holds the minimized one.
 */
async function shrinkFinding(worker: Worker, property: DataProperty, arbitrary: fc.Arbitrary<DataCase>, sighting: Sighting, options: DataRunOptions, limit: ShrinkTimeLimit, replayPath: (path: string) => string): Promise<PropertyFailure> {
  const predicate = fc.asyncProperty(arbitrary, async (testCase: DataCase) => {
    // Interrupted, or out of time: fast-check stops shrinking and keeps the smallest counterexample
    // so far. Checked before each candidate, never by racing one (fast-check's interruptAfterTimeLimit):
    // a raced case goes on writing on the worker's connection after fast-check returns.
    if (options.stop?.() || limit.over()) throw new fc.PreconditionFailure(true);
    // Checked as the run sends it (asSent): a candidate as drawn would keep the model's ids in text
    // a mapped target holds as uuids, and the saved case would be one the run never sent.
    const sent = (await asSent(worker.tx.fixturePlan, options.oracle, testCase)).testCase;
    if (!sent) return;
    let verdict;
    try {
      verdict = await checkCase(worker.tx, sent, options.oracle);
    } catch {
      return; // a candidate the fixtures refuse is not this finding
    }
    if (verdict.mismatch && signatureOf(property.id, verdict.mismatch) === sighting.signature) throw new CaseMismatch(verdict.mismatch, verdict.history);
  });
  const shrunk = await fc.check(predicate, { seed: options.seed + sighting.lane, path: String(sighting.index), numRuns: 1 });
  await worker.tx.flush();
  let start = sighting.testCase;
  let mismatch = sighting.mismatch;
  let history = sighting.history;
  let path = String(sighting.index);
  const shrunkSent = shrunk.failed && shrunk.counterexample ? (await asSent(worker.tx.fixturePlan, options.oracle, shrunk.counterexample[0] as DataCase)).testCase : undefined;
  if (shrunk.failed && shrunk.errorInstance instanceof CaseMismatch && shrunkSent) {
    start = plainCase(shrunkSent);
    mismatch = shrunk.errorInstance.mismatch;
    history = shrunk.errorInstance.history ?? history;
    path = shrunk.counterexamplePath ?? path;
  }
  const minimized = options.stop?.() ? { testCase: start, mismatch, history } : await minimizeCase(worker.tx, options.oracle, property.id, sighting.signature, start, mismatch, history, { over: () => options.stop?.() === true || limit.over() });
  return findingOf(property.id, options.seed + sighting.lane, replayPath(path), minimized.testCase, minimized.mismatch, sighting.testCase, minimized.history, worker.tx.fixturePlan);
}

const SHRINK_FLOOR_MS = 3000;
/** How often a shrink looks for the interrupt, to cancel its statement in flight. */
const INTERRUPT_POLL_MS = 100;

/** When a property run's shrinking must end (ShrinkTimeLimit.over), and whether it was reached. */
interface ShrinkTimeLimit {
  over(): boolean;
  readonly reached: boolean;
}

/**
 * The shrinking of a property run's findings (fast-check's shrink and minimizeCase, every finding
 * together) gets the time left of the run's share of the budget (`deadline`, the run `started`
 * then), and where its cases took it all, at least a floor: SHRINK_FLOOR_MS, never more than the
 * share itself, so a failing property takes at most twice its share and the properties after it
 * keep theirs. A floor of 3 s per finding, with minimizeCase unbounded, let a failing property take
 * its findings × 3 s past a share of 2 s: on stranger-app-9's pr run (45 s) shrinking took 40 s of
 * the data half and six properties were NOT REACHED. No deadline (no budget): no limit.
 */
export function shrinkTimeLimit(deadline: number | undefined, started: number, now: () => number = Date.now): ShrinkTimeLimit {
  const floor = deadline === undefined ? 0 : Math.min(SHRINK_FLOOR_MS, Math.max(0, deadline - started));
  const ends = deadline === undefined ? undefined : Math.max(now() + floor, deadline);
  let reached = false;
  return {
    over: () => (reached ||= ends !== undefined && now() >= ends),
    get reached() {
      return reached;
    },
  };
}

/** Said of a property whose shrinking the time limit cut: its findings are smaller with more time, and their replay paths may differ run to run. */
export const SHRINK_TIMED_OUT_NOTE = 'shrinking cut short by the time budget: the smallest counterexample found in time is reported (a longer --time-budget shrinks further)';

/**
 * A drawn case as the run sends it to this target: sendableCase (columns filled from auth.uid(),
 * the model's ids in text as the target keeps them, requests it cannot take left out); a model
 * run compiled again with those columns filled, and dropped whole when a step cannot be sent.
 * The search, the shrink and the saved failure all use this form, so a replay (and its repro)
 * sends what the run sent.
 */
async function asSent(plan: FixturePlan, oracle: Oracle, drawn: DataCase): Promise<{ testCase?: DataCase; dropped: Record<string, number> }> {
  // A list the target keeps elsewhere (a column mapped to null) starts at its default, and a
  // server-stamped state it does not show (deleted_at) at null (null-mapped-columns.ts).
  const world = nullMappedColumnsAsHeld(drawn.world, plan.mapping, oracle.model);
  // An insert's null in such a column is left out of its body: the same insert to the model, one
  // the target can take (a model run's steps are compiled from its commands: left as they are).
  const steps = modelRunOf(drawn) ? drawn.steps : drawn.steps.map((s) => {
    const request = insertWithoutNullMappedNulls(s.request, plan.mapping, oracle.model);
    return request === s.request ? s : { ...s, request };
  });
  const fitted = world === drawn.world && steps.every((s, i) => s === drawn.steps[i]) ? drawn : { ...drawn, world, steps };
  const testCase = await withGrantedColumnReads(oracle, plan.mapping, fitted);
  if (!modelRunOf(testCase)) return sendableCase(plan, testCase, oracle.model.tables);
  // A model run's steps depend on one another: one the target cannot take (a column mapped to
  // null) drops the whole case, counted, rather than a step of it.
  const filled = await withCallerFilledRun(oracle, testCase);
  const { dropped } = sendableCase(plan, filled, oracle.model.tables);
  return Object.keys(dropped).length ? { dropped } : { testCase: filled, dropped };
}

/** An earlier tranche kept a finding of this signature from this lane or an earlier one (DataRunOptions.known). */
function shrunkBefore(options: DataRunOptions, signature: string, laneSeed: number): boolean {
  return options.known?.some((k) => k.signature === signature && k.seed <= laneSeed) === true;
}

/** How many cases the given lanes check (what a progress bar should expect). */
export function plannedRuns(runs: number, lanes: { first: number; count: number; total: number }): number {
  const share = Math.ceil(runs / lanes.total);
  let n = 0;
  for (let l = lanes.first; l < lanes.first + lanes.count; l++) n += Math.max(0, Math.min(share, runs - share * l));
  return n;
}
