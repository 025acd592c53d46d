/**
 * The one shape every property run reports, data-layer (R01…R20) and SSO (S01…) alike.
 * Reporters (console, JSON, JUnit, HTML) and the CLI's exit code read only this.
 */
import type { PropertyTimings } from './timings.ts';

/**
 * `partial`: cut short (time budget or interrupt) below the minimum cases a verdict needs;
 * `not-reached`: not a single case ran. Neither is a pass, and neither is a failure.
 * `no-verdict`: every case drawn was dropped, as one this target cannot hold (`dropped` says why):
 * no case checked, so no verdict; not a harness error either. It fails the run's exit code, as a
 * property that checked nothing must not pass unnoticed.
 */
export type PropertyStatus = 'passed' | 'failed' | 'not-applicable' | 'error' | 'partial' | 'not-reached' | 'no-verdict';

export interface PropertyFailure {
  /** fast-check seed and path: `--seed <seed> --path <path>` replays the shrunk case. */
  seed: number;
  path: string;
  /** Plain data: the shrunk case, so a person can read it and a replay can rebuild it. */
  counterexample: unknown;
  /** What the model predicted and what the system answered, side by side. */
  expected?: unknown;
  actual?: unknown;
  message: string;
  /** Data layer: the step (0-based) of the case where model and database first disagreed. */
  step?: number;
  /** Data layer: the differing step went to a table sent as SQL under the caller's role (mapping `via: "sql"`), not through PostgREST. */
  sentAs?: 'sql';
  /** Data layer: columns the server assigns, present in the answer but not compared. */
  masked?: string[];
  /** Data layer: what the model predicted (in its own names) for each step sent, up to the disagreeing one (the case's history); the psql repro reuses it. */
  predictions?: unknown[];
  /** Data layer: what kind of disagreement this is (engine/findings/signature.ts); one finding per signature. */
  signature?: string;
  /** Data layer: a side error (signature.ts isSideError: both refused, other codes), listed after the others. */
  side?: true;
  /** Data layer: the case as first found (before shrinking), when shrinking changed it; `counterexample` is the shrunk one, of the same signature. */
  unshrunk?: unknown;
  /** Data layer: the case's size as first found and as reported (users, fixture rows, steps). */
  sizes?: { before: CaseSize; after: CaseSize };
  /** Set by a run with a baseline: the reason this signature was accepted. */
  baselined?: string;
}

export interface CaseSize {
  users: number;
  rows: number;
  steps: number;
}

/** How often a run reached each side of one labelled clause of a rule. */
export interface ClauseCount {
  id: string;
  label: string;
  allowed: number;
  refused: number;
}

/** How many cases took one branch of the model (engine/model/branches.ts); 0: never taken. */
export interface BranchCount {
  id: string;
  label: string;
  taken: number;
}

export interface PropertyResult {
  id: string;
  title: string;
  area: 'data' | 'sso';
  status: PropertyStatus;
  /** Cases run (fast-check runs, not counting shrinking). */
  cases: number;
  /** Outcome classes seen, e.g. allowed / filtered / rejected / errored for the data layer. */
  counts: Record<string, number>;
  /** Data layer: steps per access-matrix cell (`target|command|caller|outcome`, engine/model/access.ts). */
  access?: Record<string, number>;
  /** Data layer: per labelled clause of the rule, the steps that reached each side. */
  clauses?: ClauseCount[];
  /** Data layer: the property's `oneSided` (the rule has only this side; coverage asks for no other). */
  oneSided?: 'allow' | 'deny';
  /** Data layer: per branch of the model the pack's catalog gives this property, the cases that took it. */
  branches?: BranchCount[];
  durationMs: number;
  /** Data layer: stopped before its planned cases, at or past its minimum, because it was saturated (engine/runner/budget.ts earlyStopReason). */
  stoppedEarly?: { cases: number; reason: string };
  /** Data layer: where the time went (generation, model, database, shrinking: engine/runner/timings.ts). */
  timings?: PropertyTimings;
  seed: number;
  /** The first finding (what reporters that show one failure read). */
  failure?: PropertyFailure;
  /** Data layer: every distinct finding (one per signature), shrunk, in the order first found, side errors (both refused, other codes) last; `failure` is the first. */
  findings?: PropertyFailure[];
  /** Data layer: more distinct findings than the MAX_FINDINGS reported (findings/cap.ts), counted; `atLeast`: a merge of shards that each found more than they listed. */
  moreFindings?: { distinct: number; atLeast?: true };
  /** For a failure: milliseconds until the first disagreement was seen, before shrinking. */
  firstFailureMs?: number;
  /** Why a property did not run (not-applicable) or could not run (error). */
  note?: string;
  /** Cases it was to run (the profile's or --runs); `cases` below it means it was cut short. */
  planned?: number;
  /**
   * Data layer: cases (or requests) drawn that this target cannot hold, by reason: dropped before
   * they ran (engine/target/realizable.ts, a column mapped to null), or when the database refused
   * their fixtures; never counted in `cases`, never an error.
   */
  dropped?: Record<string, number>;
  /**
   * Data layer: what the dropped cases would have reached by the model's answers, by side (`allow`,
   * `deny`) and clause side (`<clause>:allowed`, `<clause>:refused`): the coverage gate excuses only
   * these as not checked on this target (engine/runner/coverage.ts DroppedReach).
   */
  droppedReach?: Record<string, number>;
  /**
   * Data layer: cases cut before a step a role sweep appended that this target cannot hold, by
   * reason (engine/runner/check-case.ts CaseCut): their steps before it were judged, and they
   * count in `cases`; not dropped.
   */
  cut?: Record<string, number>;
  /** Data layer: steps the model agreed with only by an answer the target's shape justified (mapping.ts leniencyOf), by what justified it; named in the note. */
  accepted?: Record<string, number>;
  /** Data layer: steps the model agreed with only by a secure reading of a rule the spec leaves open (Outcome.reading), by its name; named in the note. */
  readings?: Record<string, number>;
  /** Why generation ended before `planned`: the time budget ran out, or a signal interrupted the run. */
  stopped?: 'time budget' | 'interrupted';
  /** Stopped by the time budget past its minimum, shortened for a reason to name (the load factor: engine/runner/budget.ts runBreadthFirst). */
  budgetCut?: string;
  /** Data layer, not reported: each worker's lane's progress, where a budget's next tranche resumes the property (engine/runner/budget.ts). */
  progress?: LaneProgress[];
}

/**
 * How far one worker's lane of a property has gone in its seed's sequence of cases: the runs it
 * took (dropped-after-writing included), the cases it drew, which of those it dropped before
 * writing (they took no run), and whether it gave up (too many in a row). A later tranche replays
 * these decisions instead of making them again, and goes on from there. A lane that met a harness
 * error keeps its note (`harnessError`) and goes no further, while the property's other lanes go on:
 * a shard holding other lanes cannot know of it, so one machine must not stop them either.
 */
export interface LaneProgress {
  runs: number;
  draws: number;
  drops: number[];
  gaveUp?: boolean;
  harnessError?: string;
}

export const NO_PROGRESS: LaneProgress = Object.freeze({ runs: 0, draws: 0, drops: Object.freeze([]) as unknown as number[] });
