/**
 * The one shape every property run reports, data-layer (R01…R20) and SSO (S01…) alike.
 * Reporters (console, JSON, JUnit, HTML) and the CLI's exit code read only this.
 */
export type PropertyStatus = 'passed' | 'failed' | 'not-applicable' | 'error';

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
  /** Data layer: columns the server assigns, present in the answer but not compared. */
  masked?: string[];
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
  durationMs: number;
  seed: number;
  failure?: PropertyFailure;
  /** For a failure: milliseconds until the first disagreement was seen, before shrinking. */
  firstFailureMs?: number;
  /** Why a property did not run (not-applicable) or could not run (error). */
  note?: string;
}
