/**
 * A time budget shared breadth first, so a cut never leaves one property thin while another ran
 * deep: every property runs to the first tranche (FIRST_TRANCHE cases, the coverage gate's
 * minimum; at most `minCases`), then every property to its minimum (`minCases`), then to its full
 * `runs`. The first tranche goes in steps of cases, round robin (firstTrancheSteps). Within a
 * tranche (a step) each property gets an equal share of the time left; one its share cut
 * short is resumed in the same tranche (from where each of its lanes stopped) before any goes on
 * to the next. Every tranche continues the same seed's runs (engine/runner/run-data-property.ts
 * `tranche`, `resume`): the earlier cases are not sent again, so a property that runs all its
 * tranches checks exactly the cases, and gets the verdict, of one unbudgeted run. A property that
 * fails goes on as one that passes (goesDeeper), and so do the lanes of one that errs but the lane
 * that met the error. A property the budget (or an interrupt) cut
 * short is never a pass below its minimum and never a failure: PARTIAL with the cases that ran,
 * or NOT REACHED.
 */
import type { DataProperty } from './data-property.ts';
import type { LaneProgress, PropertyResult } from './result.ts';
import { MIN_RUNS_FOR_COVERAGE } from './coverage.ts';
import { addTimings } from './timings.ts';
import { acceptedNote, addCounts, dropNotes, droppedNote, noteWithoutCounted, passNote, plannedRuns } from './run-data-property.ts';
import { parseAccessKey, requestKindKey } from '../model/access.ts';
import { MAX_FINDINGS, moreFindingsNote, oneFindingPerSignature } from '../findings/cap.ts';

/** The deadline of the next of `left` properties: an equal share of what remains, at least 1 ms. */
export function shareOfBudget(deadline: number, left: number, now = Date.now()): number {
  return now + Math.max(1, Math.floor((deadline - now) / Math.max(1, left)));
}

/** A passing joined result's note, on the joined counts (a tranche's own note speaks of its own cases). */
function passedNote(stopped: PropertyResult['stopped'], cases: number, dropped: Record<string, number>, progress: readonly LaneProgress[] | undefined, named: Pick<PropertyResult, 'accepted' | 'readings'>): { note?: string } {
  const note = [passNote(stopped, cases, dropped, progress), acceptedNote(named.accepted, named.readings)].filter(Boolean).join('; ');
  return note ? { note } : {};
}

/**
 * A failing joined result's findings and note: the findings of both tranches as one run lists them
 * (one per signature, in one run's order, capped), the counted ones and the share of dropped cases
 * said again of the joined counts, then the rest of the tranches' notes once each.
 */
function failedJoin(first: PropertyResult, second: PropertyResult, dropped: Record<string, number>, cases: number, named: Pick<PropertyResult, 'accepted' | 'readings'>): Pick<PropertyResult, 'status' | 'failure' | 'findings' | 'note' | 'moreFindings'> {
  const fromBoth = [first, second].filter((r) => r.status === 'failed');
  const all = oneFindingPerSignature(fromBoth.flatMap((r) => r.findings ?? (r.failure ? [r.failure] : [])));
  const parts: string[] = [];
  let counted = 0;
  // A harness error in a later tranche ends the property after the findings before it (as in one run).
  for (const r of [first, second].filter((x) => x.status === 'failed' || x.status === 'error')) {
    counted = Math.max(counted, r.moreFindings?.distinct ?? 0);
    const note = r.status === 'error' && r.note ? `${r.note} (after the findings above)` : undefined;
    for (const part of noteWithoutCounted(r, note).split('; ')) if (part.trim() && !parts.includes(part)) parts.push(part);
  }
  const distinct = Math.max(all.length, counted);
  // One failing tranche's count is exact; with another's findings beside it, those may be among its
  // unlisted ones: a lower bound (as merge-reports words the shards' counts).
  const atLeast = fromBoth.some((r) => r.moreFindings?.atLeast) || (counted > 0 && fromBoth.length > 1);
  const findings = all.slice(0, MAX_FINDINGS);
  const note = [...(distinct > MAX_FINDINGS ? [moreFindingsNote(distinct, atLeast)] : []), ...parts, droppedNote(dropped, cases), acceptedNote(named.accepted, named.readings)].filter(Boolean).join('; ');
  return { status: 'failed', failure: findings[0], findings, ...(distinct > MAX_FINDINGS ? { moreFindings: { distinct, ...(atLeast ? { atLeast: true as const } : {}) } } : {}), ...(note ? { note } : {}) };
}

/**
 * Tranches that together checked no case, every case drawn dropped, and ran to their end: no
 * verdict on the joined drops (a later tranche passes with none checked once earlier ones took runs).
 */
function nothingChecked(first: PropertyResult, second: PropertyResult, dropped: Record<string, number>): boolean {
  return first.cases + second.cases === 0 && Object.keys(dropped).length > 0 && (second.status === 'passed' || second.status === 'no-verdict') && !second.stopped;
}

/** One property's two runs (tranches) as one result: cases, counts and time add up. */
export function joinPasses(first: PropertyResult, second: PropertyResult): PropertyResult {
  const counts = { ...first.counts };
  for (const [k, v] of Object.entries(second.counts)) counts[k] = (counts[k] ?? 0) + v;
  const access = addCounts(first.access, second.access);
  const clauses = second.clauses?.map((c) => {
    const before = first.clauses?.find((k) => k.id === c.id);
    return before ? { ...c, allowed: c.allowed + before.allowed, refused: c.refused + before.refused } : c;
  });
  const branches = second.branches?.map((b) => ({ ...b, taken: b.taken + (first.branches?.find((k) => k.id === b.id)?.taken ?? 0) }));
  const { note, stopped, progress, ...rest } = second;
  const dropped = addCounts(first.dropped, second.dropped);
  const droppedReach = addCounts(first.droppedReach, second.droppedReach);
  const cut = addCounts(first.cut, second.cut);
  const accepted = addCounts(first.accepted, second.accepted);
  const readings = addCounts(first.readings, second.readings);
  const named = { ...(Object.keys(accepted).length ? { accepted } : {}), ...(Object.keys(readings).length ? { readings } : {}) };
  return {
    ...rest,
    ...(Object.keys(dropped).length ? { dropped } : {}),
    ...(Object.keys(dropped).length || Object.keys(cut).length ? { droppedReach } : {}),
    ...(Object.keys(cut).length ? { cut } : {}),
    ...named,
    cases: first.cases + second.cases,
    counts,
    ...(first.access || second.access ? { access } : {}),
    ...(clauses ? { clauses } : {}),
    ...(branches ? { branches } : {}),
    durationMs: first.durationMs + second.durationMs,
    ...(first.timings || second.timings ? { timings: addTimings(first.timings, second.timings) } : {}),
    ...(progress ?? first.progress ? { progress: progress ?? first.progress } : {}),
    ...(stopped ? { stopped } : {}),
    ...(first.status === 'failed' || second.status === 'failed'
      ? failedJoin(first, second, dropped, first.cases + second.cases, named)
      : nothingChecked(first, second, dropped)
        ? { status: 'no-verdict' as const, note: droppedNote(dropped, 0) }
        : second.status === 'passed'
        ? passedNote(stopped, first.cases + second.cases, dropped, progress ?? first.progress, named)
        : note
          ? { note }
          : {}),
    ...(first.firstFailureMs !== undefined ? { firstFailureMs: first.firstFailureMs } : second.firstFailureMs !== undefined ? { firstFailureMs: first.durationMs + second.firstFailureMs } : {}),
  };
}

/**
 * The part of a run's minimum a shard answers for: its lanes' share, split as the cases are
 * (engine/runner/run-data-property.ts plannedRuns), so shards that each reach their share add up
 * to the whole run's minimum. Judging a shard by the whole minimum read every cut shard PARTIAL.
 */
export function shardMinimum(minCases: number, lanes: { first: number; count: number; total: number }): number {
  return plannedRuns(minCases, lanes);
}

/**
 * The verdict of a property that may have been cut short. Passed with all its cases: passed.
 * Cut short: not reached (no case), partial (below `minCases`, or stopped by an interrupt), or
 * passed with the cases that ran named in the note (the minimum reached before the budget ran out).
 */
export function budgetVerdict(r: PropertyResult, minCases: number, wholeRunMinimum?: number): PropertyResult {
  if (r.status !== 'passed' || !r.stopped) return r;
  const minimum = wholeRunMinimum === undefined ? `its minimum of ${minCases}` : `this shard's share (${minCases}) of its minimum of ${wholeRunMinimum}`;
  const of = `${r.cases}${r.planned !== undefined ? ` of ${r.planned}` : ''} cases`;
  const why = r.stopped === 'interrupted' ? 'the run was interrupted' : 'the time budget ran out';
  if (r.cases === 0) return { ...r, status: 'not-reached', note: `not reached: ${why} before its first case` };
  if (r.cases < minCases || r.stopped === 'interrupted') return { ...r, status: 'partial', note: `partial (${of}): ${why}${r.cases < minCases ? ` below ${minimum}` : ''}` };
  // The share of dropped cases stays named: a budget's cut must not hide it.
  const { prominent, general } = dropNotes(r.dropped ?? {}, r.cases);
  return { ...r, note: [...prominent, `${of}: ${why} after ${minimum}`, ...(r.budgetCut ? [r.budgetCut] : []), ...(general ? [general] : [])].join('; ') };
}

/** A property the run never started (the budget or an interrupt came first). */
export function notReached(property: Pick<DataProperty, 'id' | 'title'>, area: 'data' | 'sso', seed: number, why: 'time budget' | 'interrupted', planned?: number): PropertyResult {
  return {
    id: property.id,
    title: property.title,
    area,
    status: 'not-reached',
    cases: 0,
    counts: {},
    durationMs: 0,
    seed,
    stopped: why,
    ...(planned !== undefined ? { planned } : {}),
    note: `not reached: ${why === 'interrupted' ? 'the run was interrupted' : 'the time budget ran out'} before it started`,
  };
}

/** The first tranche every property runs to before any goes further: enough cases for the coverage gate to judge its clauses. */
export const FIRST_TRANCHE = Math.max(50, MIN_RUNS_FOR_COVERAGE);

/** The cases a round of the first tranche takes each property forward (firstTrancheSteps). */
export const FIRST_TRANCHE_STEP = 10;

/**
 * The steps the first tranche is run in, round robin: every property to 10 cases, then every one
 * to 20, … to `tranche`. An equal share of the time instead let a property slow to start take its
 * share and leave the others none (a nightly's 40 s: R01 and R20 at 0 cases, others at 4–49);
 * stepped, no property goes a step further while another is below it. The steps are cases, never
 * time, so the cases each property checks are those of its own lanes' seeds as in one run. Once
 * the budget clearly holds the rest (restOfTrancheFits), the remaining steps are left out.
 */
export function firstTrancheSteps(tranche: number): number[] {
  const steps: number[] = [];
  for (let t = FIRST_TRANCHE_STEP; t < tranche; t += FIRST_TRANCHE_STEP) steps.push(t);
  return [...steps, tranche];
}

/** How many times its projected time the rest of the first tranche must find left before the budget's end to go at once. */
export const FIRST_TRANCHE_ROOM = 2;

/**
 * Whether the rest of the first tranche, from `step` to `tranche` cases, fits before `deadline` at
 * the pace its steps so far went (since `started`), FIRST_TRANCHE_ROOM times over: then the steps
 * guard nothing and the properties go to the tranche's end at once. Each step is one run per
 * property, and each run's end waits for both lanes' last case and starts the next with the
 * database idle (5 steps of 10 cases: 7–10% of the lanes' time idle on the reference's pr job, 6% in
 * 2 steps). The cases are the same either way (steps are cases); only the order of properties changes.
 */
export function restOfTrancheFits(started: number, now: number, step: number, tranche: number, deadline: number): boolean {
  if (deadline === Number.POSITIVE_INFINITY) return true;
  const projected = ((now - started) / step) * (tranche - step);
  return now + FIRST_TRANCHE_ROOM * projected <= deadline;
}

/**
 * How far apart early stop judges a property past its minimum: as far as its first judgement at the
 * minimum looked back (the first tranche to the minimum, half of it in pr), at least FIRST_TRANCHE.
 */
export function earlyStopStep(minCases: number): number {
  return Math.max(FIRST_TRANCHE, Math.ceil(minCases / 2));
}

/**
 * The tranches of a budgeted run, ascending, the last `runs`: the first tranche and `minCases`, where
 * below `runs`. With early stop, checkpoints past the minimum every earlyStopStep cases too: a
 * property that saturates at 150 stops there instead of running on to 300 (it was judged only at
 * its minimum, each checkpoint looks back over the cases since the one before, as at the minimum).
 */
export function tranchesOf(runs: number, minCases: number, earlyStop = false): number[] {
  const first = Math.min(FIRST_TRANCHE, minCases);
  const checkpoints: number[] = [];
  if (earlyStop && minCases > 0) for (let t = minCases + earlyStopStep(minCases); t < runs; t += earlyStopStep(minCases)) checkpoints.push(t);
  return [...new Set([first, minCases, ...checkpoints, runs].filter((t) => t > 0 && t <= runs))].sort((a, b) => a - b);
}

/** What one run of a property toward a tranche is given. */
export interface TrancheRun {
  /** Run up to the first `tranche` of the property's runs. */
  tranche: number;
  /** Where each lane stopped in the property's earlier tranches. */
  resume?: readonly LaneProgress[];
  /** This run's share of the budget (epoch ms). */
  deadline: number;
  /** The findings of its earlier tranches (not shrunk again: DataRunOptions.known). */
  known?: ReadonlyArray<{ signature?: string; seed: number }>;
}

export interface BreadthFirst<P extends { id: string }> {
  properties: readonly P[];
  /** Ascending; the last is every run of a property (tranchesOf). */
  tranches: readonly number[];
  /** The end of the budget (epoch ms). */
  deadline: number;
  /**
   * An earlier end for the tranches after the one at `above` (a property's minimum), read as
   * each starts: going deeper must not take what the half that runs afterwards needs.
   */
  deepeningDeadline?: { above: number; at: () => number; why?: () => string | undefined };
  run(property: P, tranche: TrancheRun): Promise<PropertyResult>;
  /** True once the run is interrupted (a signal). */
  interrupted(): boolean;
  /** Asked before a property's first run: true leaves it out (--max-failures reached). */
  leaveOut?(property: P): boolean;
  /** True once the run has failed enough (--max-failures): a failing property then goes no further. */
  enoughFailures?(): boolean;
  /** Told of each property's result after each of its runs. */
  onResult?(result: PropertyResult): void;
  /** Early stop (earlyStopReason): from this tranche on (the minimum), a saturated property goes no further. */
  earlyStopFrom?: number;
  /**
   * Start each property's run of a tranche while the one before it still runs (two at most): its
   * lanes take their workers as that run's lanes free them (run-data-property.ts onWorker), so a
   * lane that ends first does not wait for the other at every property's end. Each run's cases are
   * its lanes' own, so the cases and verdicts are those of one run after another; results are
   * taken in order. Off where a run's result decides whether the next starts (--max-failures).
   */
  overlap?: boolean;
  now?: () => number;
}

/**
 * What a property's steps asked, whatever the answer: the access-matrix cells (`access`,
 * engine/model/access.ts) without their outcome — table or function × command × API role.
 */
function requestsAsked(r: PropertyResult): Set<string> {
  return new Set(Object.keys(r.access ?? {}).map((key) => requestKindKey(parseAccessKey(key))));
}

/**
 * What keeps a property that ran from `before` to `after` from saturation (earlyStopReason), each
 * as `clause <id> never allowed|refused`, `branch <id> never taken`, `new outcome class <class>` or
 * `new kind of request <table|command|role>`; none when saturated. bench/early-stop-why.ts prints them.
 */
export function saturationGaps(before: PropertyResult, after: PropertyResult): string[] {
  const gaps: string[] = [];
  for (const c of after.clauses ?? []) {
    if (c.allowed === 0) gaps.push(`clause ${c.id} never allowed`);
    if (c.refused === 0) gaps.push(`clause ${c.id} never refused`);
  }
  for (const b of after.branches ?? []) if (b.taken === 0) gaps.push(`branch ${b.id} never taken`);
  const seen = (r: PropertyResult) => Object.keys(r.counts).filter((k) => r.counts[k] > 0);
  const earlier = new Set(seen(before));
  for (const k of seen(after)) if (!earlier.has(k)) gaps.push(`new outcome class ${k}`);
  const askedBefore = requestsAsked(before);
  for (const k of requestsAsked(after)) if (!askedBefore.has(k)) gaps.push(`new kind of request ${k}`);
  return gaps;
}

/**
 * Why a property that ran to a tranche may stop there, or undefined: every labelled clause
 * reached on both sides, every model branch it owns taken, no outcome class new in the tranche
 * just run (`before`: its result at the tranche before), and no new kind of request either (a
 * table or function, command and API role none of its earlier steps sent: a generator still
 * reaching new ground is not saturated, and a fault there is found late — measured by
 * bench/early-stop-kills.ts). Read off the results alone, so the same seed stops at the same case.
 */
export function earlyStopReason(before: PropertyResult | undefined, after: PropertyResult): string | undefined {
  if (!before || after.status !== 'passed' || saturationGaps(before, after).length) return undefined;
  const what = [after.clauses?.length ? 'every clause reached on both sides' : '', after.branches?.length ? 'every model branch taken' : ''].filter(Boolean);
  return [...what, `no new outcome class or kind of request since ${before.cases} cases`].join(', ');
}

/** What a note (and the reports) say of a property that stopped early: at how many of its planned cases, and why. */
export function earlyStopNote(early: { cases: number; reason: string }, planned: number | null | undefined): string {
  return `stopped early at ${early.cases}${planned != null ? ` of ${planned}` : ''} cases: ${early.reason}`;
}

/**
 * A property goes on to its next tranche passing, failing or with every case so far dropped (no
 * verdict): which lanes' cases fail or drop must not decide how many the others run, or the
 * shards of a run (each its own lanes) would run other cases than one machine does (a failure one
 * shard made in its first tranche stopped only that shard; a shard whose lanes dropped their few
 * first-step cases stopped there, while one machine, its other lanes checking cases, ran them on
 * and found more). Each lane bounds its own drops (MAX_CONSECUTIVE_DROPS, its share of the runs).
 * A harness error ends the lane that met it alone (LaneProgress harnessError), the property's other
 * lanes going on: a shard of other lanes cannot know of it, and its merged counts were a whole
 * run's while one machine's stopped at the error's tranche. Failing, no verdict or a harness error
 * stop it once the run has failed enough (`--max-failures`: the user asked for speed, not every finding).
 */
function goesDeeper(r: PropertyResult | undefined, o: Pick<BreadthFirst<{ id: string }>, 'enoughFailures'>): boolean {
  return r?.status === 'passed' || ((r?.status === 'failed' || r?.status === 'no-verdict' || r?.status === 'error') && o.enoughFailures?.() !== true);
}

/**
 * Runs the properties breadth first through the tranches within the budget (above); returns
 * each started property's result, its tranches joined. One that did not reach the last tranche is
 * marked `stopped` (by the time budget, or the interrupt).
 */
export async function runBreadthFirst<P extends { id: string }>(o: BreadthFirst<P>): Promise<Map<string, PropertyResult>> {
  const now = o.now ?? Date.now;
  const results = new Map<string, PropertyResult>();
  /** The last tranche each property ran to its end. */
  const reached = new Map<string, number>();
  /** Each property's result at the end of the last tranche it ran to its end (early stop compares with it). */
  const atReached = new Map<string, PropertyResult>();
  /** Stopped early: they go no further. */
  const settled = new Set<string>();
  const last = o.tranches[o.tranches.length - 1];
  /** Why the deepening deadline came before the budget's end, when it did (the load factor): named on the properties it cut. */
  let shortenedBy: string | undefined;
  for (const [t, tranche] of o.tranches.entries()) {
    // Only once the tranche before reached the minimum (a lone property's one tranche has none).
    const deepening = o.deepeningDeadline !== undefined && t > 0 && o.tranches[t - 1] >= o.deepeningDeadline.above;
    const deepeningAt = deepening ? o.deepeningDeadline!.at() : Number.POSITIVE_INFINITY;
    const deadline = Math.min(o.deadline, deepeningAt);
    if (deepeningAt < o.deadline) shortenedBy = o.deepeningDeadline!.why?.() ?? shortenedBy;
    const over = () => o.interrupted() || now() >= deadline;
    // The first tranche in steps of cases, round robin among several properties (firstTrancheSteps); the others at once.
    const stepped = t === 0 && o.properties.length > 1;
    const steps = stepped ? firstTrancheSteps(tranche) : [tranche];
    const trancheStarted = now();
    for (let k = 0; k < steps.length; k++) {
      const step = steps[k];
      // Each step after the first: the properties that ran the one before to its end.
      const ranBefore = (p: P) => (stepped ? !results.get(p.id)!.stopped : reached.get(p.id) === o.tranches[t - 1]);
      let pending = o.properties.filter((p) => (t === 0 && k === 0 ? true : goesDeeper(results.get(p.id), o) && ranBefore(p) && !settled.has(p.id)));
      while (pending.length && !over()) {
        /** The run before this one and the taking of its result (`overlap`: still going as this one starts). */
        let ahead: Promise<void> = Promise.resolve();
        /** Every run started: none is left going when one fails (the session closes after). */
        const started: Promise<unknown>[] = [];
        const take = async (property: P, before: PropertyResult | undefined, running: Promise<PropertyResult>) => {
          const r = await running;
          let joined = before ? joinPasses(before, r) : r;
          // A step short of the tranche is not the tranche: early stop judges whole tranches alone.
          if (!r.stopped && step === tranche) {
            reached.set(property.id, tranche);
            const why = o.earlyStopFrom !== undefined && tranche >= o.earlyStopFrom && tranche < last ? earlyStopReason(atReached.get(property.id), joined) : undefined;
            atReached.set(property.id, joined);
            if (why) {
              const stoppedEarly = { cases: joined.cases, reason: why };
              const early = earlyStopNote(stoppedEarly, joined.planned);
              joined = { ...joined, stoppedEarly, note: joined.note ? `${early}; ${joined.note}` : early };
              settled.add(property.id);
            }
          }
          results.set(property.id, joined);
          o.onResult?.(joined);
        };
        try {
          for (const [i, property] of pending.entries()) {
            if (over()) break;
            const before = results.get(property.id);
            if (!before && o.leaveOut?.(property)) continue;
            const known = before?.findings?.map((f) => ({ seed: f.seed, ...(f.signature ? { signature: f.signature } : {}) }));
            const running = o.run(property, { tranche: step, ...(before?.progress ? { resume: before.progress } : {}), ...(known?.length ? { known } : {}), deadline: shareOfBudget(deadline, pending.length - i, now()) });
            started.push(running.catch(() => {}));
            const taken = ahead.then(() => take(property, before, running));
            taken.catch(() => {}); // awaited below, in order
            if (o.overlap) await ahead;
            else await taken;
            ahead = taken;
          }
          await ahead;
        } catch (error) {
          await Promise.all(started);
          throw error;
        }
        // Cut short by their share of the budget, not by its end: resumed before any property goes further
        // (not one settled by early stop).
        pending = pending.filter((p) => goesDeeper(results.get(p.id), o) && results.get(p.id)?.stopped === 'time budget' && !settled.has(p.id));
      }
      // The budget holds the rest of the first tranche with room to spare: its steps are no longer needed.
      if (stepped && k < steps.length - 2 && restOfTrancheFits(trancheStarted, now(), step, tranche, deadline)) k = steps.length - 2;
    }
  }
  for (const [id, r] of results) {
    if (r.status === 'passed' && !r.stopped && !settled.has(id) && (reached.get(id) ?? 0) < last) results.set(id, { ...r, stopped: o.interrupted() ? 'interrupted' : 'time budget' });
  }
  // Cut past its minimum while the load-scaled deadline was in force: the note names the factor.
  if (shortenedBy) {
    for (const [id, r] of results) {
      if (r.status === 'passed' && r.stopped === 'time budget' && (reached.get(id) ?? 0) >= o.deepeningDeadline!.above) results.set(id, { ...r, budgetCut: shortenedBy });
    }
  }
  return results;
}
